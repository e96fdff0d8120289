// Known-bad Ledger build "no-reinstall-sweep" (v2 with one anti-pattern): no reinstall sweep: keychain items of an uninstalled app come back after a reinstall.
import AppHarness
import LedgerKit

await Harness.main(LedgerMutants.noReinstallSweep())
