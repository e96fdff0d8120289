// Ledger 5.0, the first release under the new team after the bridge release, as an automation build.
import AppHarness
import LedgerKit

await Harness.main(LedgerTransferBuild())
