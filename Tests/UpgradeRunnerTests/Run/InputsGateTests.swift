import Foundation
import GateModel
import TestSupport
import Testing
import UpgradeContract
import UpgradeRunner

/// Inputs only of states a device can hold (issue 36 item 5), on small app builds (InputsApp) written as
/// iOS developers write them: a token kept as `Data(token.utf8)` is never seeded on the old build's behalf
/// as bytes that are not UTF-8; a Codable JSON session and key paths in an app group's plist and JSON are
/// declared stores, malformed as JSON; a build that loses the token kept in its JSON file is caught.
@Suite("inputs a device can hold, on builds that keep text in the keychain and secrets in JSON files")
struct InputsGateTests {
    static let group = "group.com.example.session"

    /// Writes `<builds>/<id>/` for each of InputsApp's releases, with `keeps` as `keeps`.
    static func writeBuild(
        in folder: String, id: String, bundleID: String, version: String, number: String, groups: [String] = [],
        keeps: [[String: Any]]
    ) throws {
        try BuildFixture.write(
            in: folder, id: id, bundleID: bundleID, marketingVersion: version, buildNumber: number, executable: "InputsApp",
            groups: groups)
        let manifestPath = folder + "/" + id + "/build.json"
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
        manifest["keeps"] = ["secrets": keeps]
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: URL(fileURLWithPath: manifestPath))
    }

    static func gate(
        _ builds: [String], scenarios: [Scenario], caseID: String, in directory: TemporaryDirectory, out: String
    )
        throws -> GateReport
    {
        let request = GateRequest(
            builds: builds, scenarios: scenarios, caseID: caseID, jobs: 2, out: directory.file(out),
            buildsFolder: directory.file("builds"), productsFolder: BuiltProducts.directory.path)
        return try ReleaseGate.run(request)
    }

    static func condition(
        _ report: GateReport, _ path: String, _ scenario: Scenario, _ condition: GateCondition
    ) -> GateReport.CellResult? {
        report.paths.first { $0.path == path }?.scenarios.first { $0.scenario == scenario }?.conditions.first {
            $0.condition == condition
        }
    }

    // MARK: A token the app keeps as Data(token.utf8)

    /// A case id whose upgrade cell seeds the token in the `bytes` shape (the shape rotation is a function of
    /// the case id, the label and the scenario: the first such id of a fixed list).
    static let bytesCase: String = {
        let allowed = ShapeRotation.allowed(locations: [.keychain, .keychain], narrowed: [nil, nil])
        return (0..<200).map { "inputs-\($0)" }.first {
            ShapeRotation.shape(caseID: $0, label: "token", scenario: .upgrade, allowed: allowed) == .bytes
        }!
    }()

    @Test(
        "a token kept as Data(token.utf8) is seeded on 2.0's behalf as text in the bytes cell: 3.0 reads it, PASS, the shape noted as skipped"
    )
    func textTokenPasses() throws {
        let directory = try TemporaryDirectory("inputs-gate")
        let keychain: [String: Any] = [
            "kind": "keychain", "service": "com.example.tokens", "account": "token", "accessible": "ck",
        ]
        for (id, version, number) in [("tokens2", "2.0", "200"), ("tokens3", "3.0", "300")] {
            try Self.writeBuild(
                in: directory.file("builds"), id: id, bundleID: "com.example.tokens", version: version, number: number,
                keeps: [["label": "token", "store": keychain]])
        }
        let report = try Self.gate(
            ["tokens2", "tokens3"], scenarios: [.upgrade], caseID: Self.bytesCase, in: directory, out: "out")
        #expect(report.verdict == .pass, "\(report.reasons)")
        for condition in [GateCondition.readsOldData, .staysSignedIn] {
            let cell = Self.condition(report, "tokens2-to-tokens3", .upgrade, condition)
            #expect(
                cell?.verdict == .pass && cell?.findings.allSatisfy { $0.verdict == .pass } == true,
                "\(condition): \(cell?.findings ?? [])")
        }
        let shapes = try #require(report.shapes?.first { $0.label == "token" })
        #expect(shapes.skipped?.contains { $0.contains("tokens2-to-tokens3/upgrade: bytes skipped") } == true, "\(shapes)")
    }

    // MARK: A Codable JSON session, and key paths in an app group's plist and JSON

    static func writeSessionBuilds(in directory: TemporaryDirectory) throws {
        let keeps: [[String: Any]] = [
            [
                "label": "token",
                "store": ["kind": "json", "file": "Library/Application Support/session.json", "keyPath": "auth.token"],
            ],
            ["label": "pin", "store": ["kind": "plist", "group": group, "file": "shared.plist", "keyPath": "lock.pin"]],
            ["label": "share", "store": ["kind": "json", "group": group, "file": "share.json", "keyPath": "share.key"]],
        ]
        for (id, version, number) in [("session4", "4.0", "400"), ("session5", "5.0", "500"), ("session5-drops", "5.1", "510")] {
            try Self.writeBuild(
                in: directory.file("builds"), id: id, bundleID: "com.example.session", version: version, number: number,
                groups: [group], keeps: keeps)
        }
    }

    @Test("a JSON session and key paths in an app group's plist and JSON carry over, and a malformed JSON seed is kept: PASS")
    func jsonSessionPasses() throws {
        let directory = try TemporaryDirectory("inputs-gate")
        try Self.writeSessionBuilds(in: directory)
        let report = try Self.gate(
            ["session4", "session5"], scenarios: [.upgrade, .malformed], caseID: "inputs-json", in: directory, out: "out")
        #expect(report.verdict == .pass, "\(report.reasons)")
        let malformed = Self.condition(report, "session4-to-session5", .malformed, .malformedKeepsOld)
        #expect(malformed?.verdict == .pass, "\(malformed?.findings.map(\.message) ?? [])")
        // The malformed seed of the JSON file is JSON's own torn document, never a property list.
        let seeds = try FileManager.default.contentsOfDirectory(
            atPath: directory.file("out/paths/session4-to-session5/malformed/status"))
        let seed = try #require(seeds.sorted().first { $0.contains("session4") })
        let status = try LaunchStatus.decode(
            Data(contentsOf: URL(fileURLWithPath: directory.file("out/paths/session4-to-session5/malformed/status/" + seed))))
        #expect(status.items.filter { $0.location == .json }.map(\.name).sorted() == ["share", "token"], "\(status.items)")
    }

    @Test(
        "the known-bad build that rewrites its JSON session without the token is caught by reads-old-data, naming the token, its shape and clock"
    )
    func jsonSessionLossCaught() throws {
        let directory = try TemporaryDirectory("inputs-gate")
        try Self.writeSessionBuilds(in: directory)
        let report = try Self.gate(
            ["session4", "session5-drops"], scenarios: [.upgrade, .lateUpgrade], caseID: Self.nfdCase, in: directory, out: "out")
        #expect(report.verdict == .fail)
        let cell = try #require(Self.condition(report, "session4-to-session5-drops", .upgrade, .readsOldData))
        #expect(cell.verdict == .fail)
        let failing = cell.findings.filter { $0.verdict == .fail }
        #expect(!failing.isEmpty && failing.allSatisfy { ($0.item ?? $0.message).contains("token") }, "\(cell.findings)")
        // The finding names the input that produced it, and the summary says what teams usually do.
        #expect(failing.allSatisfy { $0.message.hasSuffix("(seeded as utf8-nfd)") }, "\(failing.map(\.message))")
        let late = try #require(Self.condition(report, "session4-to-session5-drops", .lateUpgrade, .readsOldData))
        let clocks = late.findings.filter { $0.verdict == .fail }.map(\.message)
        #expect(
            !clocks.isEmpty && clocks.allSatisfy { $0.range(of: #"clock \+[0-9]+ d\)$"#, options: .regularExpression) != nil },
            "\(clocks)")
        let summary = try String(contentsOfFile: directory.file("out/summary.md"), encoding: .utf8)
        #expect(
            summary.contains("### What teams usually do\n\n- `reads-old-data`: " + GateCondition.readsOldData.remedy),
            "\(summary)")
    }

    /// A case id whose upgrade cell seeds the token of the JSON session in the `utf8-nfd` shape.
    static let nfdCase: String = {
        let allowed = ShapeRotation.allowed(locations: [.json, .json], narrowed: [nil, nil])
        return (0..<200).map { "inputs-json-\($0)" }.first {
            ShapeRotation.shape(caseID: $0, label: "token", scenario: .upgrade, allowed: allowed) == .unicodeDecomposed
        }!
    }()
}
