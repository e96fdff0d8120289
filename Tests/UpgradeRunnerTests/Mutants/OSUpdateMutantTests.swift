import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// Issue 38 item 4's known-bad build: os-gated-migration migrates only on iOS 17 and later, so every
/// upgrade on the gate's iOS 17.5 passes, and only os-update (the upgrade on the build's declared
/// `minimumOSVersion`, 15.0, then an OS update) catches it, by reads-old-data.
@Suite("os-gated-migration end to end")
struct OSUpdateMutantTests {
    @Test("os-update catches it by reads-old-data; upgrade, late-upgrade and relaunch on iOS 17.5 pass it")
    func caughtByOSUpdateAlone() throws {
        let cli = try CLI("os-update-mutant")
        let builds = try MutantsEndToEndTests.buildsFolder(cli, mutants: ["os-gated-migration"])
        let out = cli.directory.file("out")
        let result = cli.run(
            [
                "run", "--from", "v1", "--to", "os-gated-migration", "--scenario", "upgrade,late-upgrade,relaunch,os-update",
                "--case-id", "os-update", "--jobs", "2", "--quiet", "--out", out,
            ], environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 1, "\(result.output)\(result.error)")
        let report = try GateDocument.read(from: out + "/" + GateArtifacts.gateFile).report
        let cells = try #require(report.paths.first { $0.path == "v1-to-os-gated-migration" }).scenarios
        for scenario in cells {
            #expect(scenario.verdict == (scenario.scenario == .osUpdate ? .fail : .pass), "\(scenario.scenario)")
        }
        let osUpdate = try #require(cells.first { $0.scenario == .osUpdate })
        #expect(osUpdate.conditions.first { $0.condition == .readsOldData }?.verdict == .fail)
        // The first launches ran on iOS 15.0, the last verify after the update on iOS 17.5.
        let status = out + "/paths/v1-to-os-gated-migration/os-update/status"
        let files = try FileManager.default.contentsOfDirectory(atPath: status).sorted()
        #expect(try String(contentsOfFile: status + "/" + files.first!, encoding: .utf8).contains("\"runtime\" : \"iOS 15.0\""))
        #expect(try String(contentsOfFile: status + "/" + files.last!, encoding: .utf8).contains("\"runtime\" : \"iOS 17.5\""))
    }
}
