import Foundation
import GateExecution
import GateModel
import TestSupport
import Testing

/// power-loss on app code written as iOS code is (MarkerApp): a 2.x release that keeps its install
/// marker in UserDefaults survives every crash point and fails a power loss, which takes the
/// marker's set but not the legacy file's removal, so the next launch takes the device for a
/// reinstall and sweeps the token; one that keeps it in a file written with `Data.write(options:
/// .atomic)` passes both.
@Suite("power-loss on builds that keep their install marker in UserDefaults or in a synced file")
struct PowerLossGateTests {
    /// marker1 (1.0: the token in `Documents/legacy.plist`), marker2 (2.0: the marker in
    /// UserDefaults) and marker2-file (2.1: the marker in a file), all MarkerApp.
    static func writeBuilds(in folder: String) throws {
        let legacy: [String: Any] = ["kind": "plist", "file": "Documents/legacy.plist", "keyPath": "token"]
        let keychain: [String: Any] = [
            "kind": "keychain", "service": "com.example.marker", "account": "token", "accessible": "ck",
        ]
        for (id, version, number) in [("marker1", "1.0", "100"), ("marker2", "2.0", "200"), ("marker2-file", "2.1", "210")] {
            try BuildFixture.write(
                in: folder, id: id, bundleID: "com.example.marker", marketingVersion: version, buildNumber: number,
                executable: "MarkerApp",
                keeps: ["secrets": [["label": "token", "store": version == "1.0" ? legacy : keychain]]])
        }
    }

    static func gate(_ builds: [String], in directory: TemporaryDirectory, out: String = "out") throws -> GateReport {
        try writeBuilds(in: directory.file("builds"))
        return try ReleaseGate.run(
            GateRequest(
                builds: builds, scenarios: [.crashPoints, .powerLoss], caseID: "power-loss", jobs: 2, out: directory.file(out),
                buildsFolder: directory.file("builds"), productsFolder: BuiltProducts.directory.path))
    }

    static func verdict(_ report: GateReport, _ scenario: Scenario) -> Verdict? {
        report.paths.first?.scenarios.first { $0.scenario == scenario }?.verdict
    }

    @Test(
        "a marker kept in UserDefaults: every crash point passes; a power loss after the legacy file's removal loses the token to the sweep"
    )
    func markerInDefaults() throws {
        let directory = try TemporaryDirectory("power-loss-gate")
        let report = try Self.gate(["marker1", "marker2"], in: directory)
        #expect(report.verdict == .fail)
        #expect(Self.verdict(report, .crashPoints) == .pass)
        #expect(Self.verdict(report, .powerLoss) == .fail)
        #expect(
            report.reasons.contains {
                $0.contains(
                    "power loss 3: I1 token: in neither the keychain nor a legacy store after recovery; the power loss right after mutation 3 (fs.unlink file Documents/legacy.plist) took the launch's preference sets (marker.installed), then 02-marker2-launch ran SecItemDelete on genp"
                )
            }, "\(report.reasons)")
        // The same inputs give the same bytes.
        let again = try Self.gate(["marker1", "marker2"], in: directory, out: "again")
        #expect(again == report)
        let cell = "/paths/marker1-to-marker2/power-loss/attempts.json"
        #expect(
            FileManager.default.contents(atPath: directory.file("out") + cell)
                == FileManager.default.contents(atPath: directory.file("again") + cell))
    }

    @Test("a marker kept in a file written with Data.write(options: .atomic) survives every power loss")
    func markerInSyncedFile() throws {
        let directory = try TemporaryDirectory("power-loss-gate")
        let report = try Self.gate(["marker1", "marker2-file"], in: directory)
        #expect(report.verdict == .pass, "\(report.reasons)")
        #expect(Self.verdict(report, .powerLoss) == .pass)
    }
}
