// Ledger 4.0: v3's code re-signed by the new team after an app transfer, with no bridge release
// before it. Its entitlements name only the new team's groups, so the old items are out of reach.
import AppHarness
import LedgerKit

await Harness.main(LedgerV3Build(buildID: "v4-transfer"))
