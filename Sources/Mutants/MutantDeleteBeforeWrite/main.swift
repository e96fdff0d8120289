// Known-bad Ledger build "delete-before-write" (v2 with one anti-pattern): delete before write: each legacy preference is removed before its keychain write is confirmed.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.deleteBeforeWrite())
