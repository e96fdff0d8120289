// Known-bad Ledger build "janitor-drops-session" (v3 with one anti-pattern): the 30-day janitor removes the session keychain item with the legacy session cache.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.janitorDropsSession())
