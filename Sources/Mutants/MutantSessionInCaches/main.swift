// Known-bad Ledger build "session-in-caches" (v2 with one anti-pattern): the migrated session kept in Library/Caches.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.sessionInCaches())
