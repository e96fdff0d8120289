import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// second-device on the sample builds (issue 38 item 6): Ledger v1-v3 keep no synchronizable item,
/// so device B reads nothing and the cell passes as the upgrade does on A; what it shows is the
/// scenario's shape: device B's launches named among the cell's status files, the same bytes on a rerun.
@Suite("second-device end to end on the sample builds")
struct SecondDeviceGateTests {
    @Test("v1 to v2 passes second-device; B's launches are NN-v1-on-B-launch, and a rerun gives the same status files")
    func sampleShape() throws {
        let cli = try CLI("second-device")
        var runs: [[String: Data]] = []
        for name in ["a", "b"] {
            let out = cli.directory.file(name)
            let result = cli.run(
                [
                    "run", "--from", "v1", "--to", "v2", "--scenario", "second-device", "--case-id", "two", "--jobs", "1",
                    "--quiet", "--out", out,
                ],
                environment: ["UPGRADE_RUNNER_BUILDS": sampleBuilds])
            #expect(result.code == 0, "\(result.output)\(result.error)")
            let status = out + "/paths/v1-to-v2/second-device/status"
            var files: [String: Data] = [:]
            for file in try FileManager.default.contentsOfDirectory(atPath: status) {
                files[file] = FileManager.default.contents(atPath: status + "/" + file)
            }
            runs.append(files)
        }
        #expect(
            runs[0].keys.sorted() == [
                "01-v1-seed.json", "02-v1-on-B-launch.json", "03-v2-launch.json", "04-v1-on-B-launch.json", "05-v2-launch.json",
                "06-v2-verify.json",
            ])
        #expect(runs[0] == runs[1])
    }
}
