import Foundation
import Testing
import TestSupport

/// The team-transfer builds through the real gate (`gate` and `run`, in-process): a transfer with no
/// bridge fails, the bridge release and the first new-team release after it pass.
@Suite struct TransferGateTests {
    @Test("gate v3,v4-transfer (no bridge): FAIL, reads-old-data and entitlements-compatible fail on v3-to-v4-transfer")
    func transferWithoutBridge() throws {
        let cli = try TransferCLI("transfer-nobridge")
        let result = cli.run([
            "gate", "--builds", "v3,v4-transfer", "--scenarios", "upgrade,entitlements",
            "--case-id", "t4", "--out", cli.out, "--jobs", "2",
        ])
        #expect(result.code == 1, "\(result.error)")
        #expect(try cli.gateDocument()["verdict"] as? String == "FAIL")
        let verdicts = try cli.cellVerdicts()
        #expect(verdicts["v3-to-v4-transfer/upgrade/reads-old-data"] == "FAIL")
        #expect(verdicts["v3-to-v4-transfer/entitlements/entitlements-compatible"] == "FAIL")
        let diff = try String(
            contentsOfFile: cli.out + "/paths/v3-to-v4-transfer/entitlements/entitlements.diff", encoding: .utf8)
        #expect(diff.contains("error   team-changed [LEDGER1234 -> NEWTEAM999]"))
        #expect(diff.contains("items the new build could no longer reach: 6 of 6"))
    }

    @Test("gate v3-bridge,v5-transfer: every default scenario passes; the diff sees the team change with the old groups empty")
    func bridgedTransfer() throws {
        let cli = try TransferCLI("transfer-bridged")
        let result = cli.run(["gate", "--builds", "v3-bridge,v5-transfer", "--case-id", "t5", "--out", cli.out, "--jobs", "2"])
        #expect(result.code == 0, "\(result.error)")
        let verdicts = try cli.cellVerdicts()
        #expect(verdicts.count > 20, "every default scenario of the transfer path, and the fresh installs")
        #expect(verdicts.filter { $0.value != "PASS" }.isEmpty, "\(verdicts.filter { $0.value != "PASS" })")
        #expect(verdicts["v3-bridge-to-v5-transfer/entitlements/entitlements-compatible"] == "PASS")
        #expect(verdicts["v3-bridge-to-v5-transfer/upgrade/reads-old-data"] == "PASS")
        let diff = try String(
            contentsOfFile: cli.out + "/paths/v3-bridge-to-v5-transfer/entitlements/entitlements.diff",
            encoding: .utf8)
        #expect(diff.contains("warning team-changed [LEDGER1234 -> NEWTEAM999]"))
        #expect(diff.contains("group.com.example.ledger  6"))
        #expect(diff.contains("items the new build could no longer reach: 0 of 6"))
    }

    @Test(
        "gate --routes 'v1>v3-bridge>v5-transfer': a device that took every release, as gate cells (its prefix too), passes")
    func transferRoute() throws {
        let cli = try TransferCLI("transfer-route")
        // The exploration scenarios of this route (about 40 CPU-seconds) run in .ci/run; these take about 2.
        let result = cli.run([
            "gate", "--routes", "v1>v3-bridge>v5-transfer",
            "--scenarios", "fresh-install,upgrade,relaunch,malformed,reinstall,entitlements,cleanup,artefact-window",
            "--case-id", "t6", "--out", cli.out, "--jobs", "2",
        ])
        #expect(result.code == 0, "\(result.error)")
        let verdicts = try cli.cellVerdicts()
        #expect(verdicts.filter { $0.value != "PASS" }.isEmpty, "\(verdicts.filter { $0.value != "PASS" })")
        let route = "v1-to-v3-bridge-to-v5-transfer"
        for cell in [
            "upgrade/reads-old-data", "relaunch/idempotent", "relaunch/reads-old-data", "entitlements/entitlements-compatible",
            "cleanup/cleanup-exact", "cleanup/reads-old-data", "reinstall/reinstall-sweeps",
        ] {
            #expect(verdicts["\(route)/\(cell)"] == "PASS", "\(cell)")
        }
        #expect(verdicts["v1-to-v3-bridge/upgrade/reads-old-data"] == "PASS", "the route's prefix")
        #expect(verdicts["none-to-v5-transfer/fresh-install/idempotent"] == "PASS")
        // The hop: the bridge's own launches moved the items to the app group, the transfer imported them.
        let status = cli.out + "/paths/\(route)/upgrade/status/"
        func migration(_ file: String) throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: status + file))
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(document["migration"] as? [String: Any])
        }
        #expect(try migration("02-v3-bridge-launch.json")["to"] as? Int == 4)
        #expect(try migration("04-v5-transfer-launch.json")["from"] as? Int == 4)
        let diff = try String(contentsOfFile: cli.out + "/paths/\(route)/entitlements/entitlements.diff", encoding: .utf8)
        #expect(diff.contains("group.com.example.ledger  6"))
        #expect(diff.contains("items the new build could no longer reach: 0 of 6"))
        let inputs = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cli.out + "/run.json")))
        let routes = try #require((inputs as? [String: Any])?["routes"] as? [[String: Any]])
        #expect(routes.count == 2, "the route and its prefix, recorded for replay")
    }

    @Test("run from v1, v2 and v3 to the bridge release: an ordinary upgrade that passes", arguments: ["v1", "v2", "v3"])
    func toBridge(from old: String) throws {
        let cli = try TransferCLI("transfer-tobridge")
        let result = cli.run([
            "run", "--from", old, "--to", "v3-bridge", "--scenario", "upgrade,malformed,entitlements,cleanup",
            "--case-id", "tb", "--out", cli.out,
        ])
        #expect(result.code == 0, "\(result.error)")
        #expect(try cli.cellVerdicts().filter { $0.value != "PASS" }.isEmpty)
    }

    @Test("run v3 -> v5-transfer (the bridge release skipped): reads-old-data and entitlements-compatible fail")
    func bridgeSkipped() throws {
        let cli = try TransferCLI("transfer-skipped")
        let result = cli.run([
            "run", "--from", "v3", "--to", "v5-transfer", "--scenario", "upgrade,entitlements",
            "--case-id", "ts", "--out", cli.out,
        ])
        #expect(result.code == 1)
        let verdicts = try cli.cellVerdicts()
        #expect(verdicts["v3-to-v5-transfer/upgrade/reads-old-data"] == "FAIL")
        #expect(verdicts["v3-to-v5-transfer/entitlements/entitlements-compatible"] == "FAIL")
    }
}
