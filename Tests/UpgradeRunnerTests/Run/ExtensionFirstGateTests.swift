import Foundation
import GateModel
import TestSupport
import Testing
import UpgradeContract
import UpgradeRunner

/// extension-first (issue 39) on ExtensionSampleApp: an app whose notification service extension shares its
/// session through a keychain access group. 2.0 moves the session on the app's launch; its extension runs
/// before that launch. The good pair passes; the known-bad 2.0, whose extension reads only the new place, is
/// caught by stays-signed-in naming the extension.
@Suite("extension-first: the new release's extension before the app's first launch")
struct ExtensionFirstGateTests {
    static let shared = "TEAM123456.com.example.notes.shared"

    static func writeBuild(in folder: String, id: String, version: String, number: String, service: String) throws {
        let build = try BuildFixture.write(
            in: folder, id: id, bundleID: "com.example.notes", marketingVersion: version, buildNumber: number,
            executable: "ExtensionSampleApp", schemaVersion: version == "1.0" ? 1 : 2,
            keeps: [
                "secrets": [
                    [
                        "label": "session",
                        "store": [
                            "kind": "keychain", "service": service, "account": "session", "accessGroup": shared,
                            "accessible": "ck",
                        ],
                    ]
                ]
            ], accessGroups: [shared])
        try BuildFixture.addExtension(
            to: build, name: "notify", executable: "ExtensionSampleApp",
            accessGroups: [shared, "TEAM123456.com.example.notes.notify"])
    }

    /// The gate of `notes1` and `new` (written by ``writeBuild(in:id:version:number:service:)``) over
    /// one `scenario`, one job, case id the scenario's name.
    static func gate(
        _ new: String, in directory: TemporaryDirectory, scenario: Scenario = .extensionFirst, keepFailed: String? = nil
    ) throws -> GateReport {
        let builds = directory.file("builds")
        try writeBuild(in: builds, id: "notes1", version: "1.0", number: "100", service: "com.example.notes")
        try writeBuild(in: builds, id: new, version: "2.0", number: "200", service: "com.example.notes.v2")
        var request = GateRequest(
            builds: ["notes1", new], scenarios: [scenario], caseID: scenario.rawValue, jobs: 1,
            out: directory.file("out-" + new), buildsFolder: builds, productsFolder: BuiltProducts.directory.path)
        request.keepFailed = keepFailed
        return try ReleaseGate.run(request)
    }

    /// One condition's result on `path` in `scenario`'s cell.
    static func result(
        _ report: GateReport, _ path: String, _ condition: GateCondition, scenario: Scenario = .extensionFirst
    ) -> GateReport.CellResult? {
        report.paths.first { $0.path == path }?.scenarios.first { $0.scenario == scenario }?.conditions.first {
            $0.condition == condition
        }
    }

    @Test("the good pair passes: the extension falls back to the old place until the app has migrated")
    func goodPair() throws {
        let directory = try TemporaryDirectory("extension-first")
        let report = try Self.gate("notes2", in: directory)
        let signedIn = try #require(Self.result(report, "notes1-to-notes2", .staysSignedIn))
        #expect(signedIn.verdict == .pass, "\(signedIn.reasons) \(report.allFindings.filter { $0.verdict != .pass })")
        #expect(signedIn.notJudged == nil)
        #expect(Self.result(report, "notes1-to-notes2", .readsOldData)?.verdict == .pass)
        #expect(report.verdict == .pass, "\(report.allFindings.filter { $0.verdict != .pass })")
        // The extension's launches are the cell's own: its status files beside the app's.
        let status = directory.file("out-notes2/paths/notes1-to-notes2/extension-first/status")
        let files = try FileManager.default.contentsOfDirectory(atPath: status).sorted()
        #expect(files.filter { $0.contains("-notify-") }.count == 3, "\(files)")
    }

    @Test("the known-bad 2.0 whose extension reads only the new place shows the user signed out: stays-signed-in FAILs")
    func extensionReadsOnlyNewPlace() throws {
        let directory = try TemporaryDirectory("extension-first-bad")
        let report = try Self.gate("notes2-new-only", in: directory, keepFailed: directory.file("kept"))
        let signedIn = try #require(Self.result(report, "notes1-to-notes2-new-only", .staysSignedIn))
        #expect(signedIn.verdict == .fail)
        let reason = signedIn.reasons.joined(separator: "\n")
        #expect(reason.contains("the first launch of notes2-new-only's extension notify after the upgrade"), "\(reason)")
        #expect(reason.contains("notes1's extension notify at its own startup"), "\(reason)")
        // A notification service extension runs while the device is locked after its first unlock.
        #expect(reason.contains("-notes2-new-only-notify-launch, locked)"), "\(reason)")
        // Only the launch before the app migrated: the second launch of the extension finds the session.
        #expect(signedIn.reasons.count == 1, "\(reason)")
        // The kept device's launch lines replay the extension's launches as they ran.
        let kept = try String(contentsOfFile: directory.file("kept/kept.md"), encoding: .utf8)
        #expect(kept.contains("com.example.notes --extension notify -- "), "\(kept)")
    }
}
