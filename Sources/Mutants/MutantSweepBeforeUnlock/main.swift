// Known-bad Ledger build "sweep-before-unlock" (v2 with one anti-pattern): an empty read on a locked device trusted: the reinstall sweep reads the marker before protected data is available.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.sweepBeforeUnlock())
