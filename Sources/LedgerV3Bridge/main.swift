// Ledger 3.1, the bridge release under the old team, as an automation build.
import AppHarness
import LedgerKit

await Harness.main(LedgerBridgeBuild())
