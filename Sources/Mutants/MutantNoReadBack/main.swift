// Known-bad Ledger build "no-read-back" (v2 with one anti-pattern): no read-back: the preference is deleted after a keychain write that was never read back.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.noReadBack())
