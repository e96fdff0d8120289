// Known-bad Ledger build "biometry-bound-tokens" (v3 with one anti-pattern): tokens put behind .biometryCurrentSet.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.biometryBoundTokens())
