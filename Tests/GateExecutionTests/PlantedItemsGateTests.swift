import Foundation
import GateExecution
import GateModel
import TestSupport
import Testing

/// Planted items judged by what the app writes, on a small app (MarkerApp) whose reinstall sweep removes only its own
/// service (`com.example.marker`, synchronizable or not): the runner's planted items of another service, an internet
/// password, a key and a certificate survive it. None is what the app writes, so each is hygiene: a warning that says
/// so, the gate PASSes, and `--strict` FAILs it. A release whose sweep of local generic passwords misses the
/// synchronizable copy of its own token (the item it declares) FAILs, naming that rule.
@Suite("planted items by what the app writes, on a build whose sweep removes only its own service")
struct PlantedItemsGateTests {
    /// marker2-file (2.1: the token in the keychain, a sweep of every local generic password) and marker2-own-sweep
    /// (2.2: a sweep of its own service only).
    static func writeBuilds(in folder: String) throws {
        let keychain: [String: Any] = [
            "kind": "keychain", "service": "com.example.marker", "account": "token", "accessible": "ck",
        ]
        for (id, version, number) in [
            ("marker2", "2.0", "200"), ("marker2-file", "2.1", "210"), ("marker2-own-sweep", "2.2", "220"),
        ] {
            try BuildFixture.write(
                in: folder, id: id, bundleID: "com.example.marker", marketingVersion: version, buildNumber: number,
                executable: "MarkerApp",
                keeps: ["secrets": [["label": "token", "store": keychain]]])
        }
    }

    static func gate(
        strict: Bool, in directory: TemporaryDirectory, out: String, builds: [String] = ["marker2-file", "marker2-own-sweep"]
    ) throws -> GateReport {
        try writeBuilds(in: directory.file("builds"))
        var request = GateRequest(
            builds: builds, scenarios: [.reinstall], caseID: "planted", jobs: 2,
            out: directory.file(out), buildsFolder: directory.file("builds"), productsFolder: BuiltProducts.directory.path)
        request.strict = strict
        return try ReleaseGate.run(request)
    }

    @Test(
        "another service's planted items surviving an own-service sweep are hygiene warnings naming the rule; --strict fails them"
    )
    func ownServiceSweep() throws {
        let directory = try TemporaryDirectory("planted-items-gate")
        let report = try Self.gate(strict: false, in: directory, out: "out")
        #expect(report.verdict == .pass, "\(report.reasons)")
        let warnings = report.warnings ?? []
        #expect(warnings.contains { $0.contains("service com.example.sweep account local") }, "\(warnings)")
        #expect(!warnings.isEmpty && warnings.allSatisfy { $0.contains("the app never writes it") }, "\(warnings)")
        let strict = try Self.gate(strict: true, in: directory, out: "strict")
        #expect(strict.verdict == .fail)
        #expect(
            strict.reasons.contains { $0.contains("reinstall-sweeps") && $0.contains("the app never writes it") },
            "\(strict.reasons)")
    }

    @Test(
        "a sweep of local generic passwords leaves the synchronizable copy of the app's own token: a FAIL naming the declared item"
    )
    func ownItemMissed() throws {
        let directory = try TemporaryDirectory("planted-items-gate")
        // 2.0 seeds the token in the keychain; 2.1's sweep after the reinstall deletes kSecClassGenericPassword without
        // kSecAttrSynchronizableAny. (2.0's sweep is the same, so the gate excuses it as pre-existing: the cell is judged.)
        let report = try Self.gate(strict: false, in: directory, out: "out", builds: ["marker2", "marker2-file"])
        let cell = try #require(
            report.paths.first { $0.path == "marker2-to-marker2-file" }?.scenarios.first { $0.scenario == .reinstall }?
                .conditions.first { $0.condition == .reinstallSweeps })
        #expect(cell.verdict == .fail)
        let own = cell.findings.filter { $0.verdict == .fail && $0.warning == nil }
        #expect(own.count == 1, "\(cell.findings)")
        #expect(
            own.first?.message.contains(
                "a synchronizable genp item planted before the reinstall survived it: it is what the app writes itself"
                    + " (genp service com.example.marker account token in TEAM123456.com.example.marker: the item token the new build declares)"
            )
                == true, "\(own)")
        #expect(report.preExisting?.isEmpty == false)
    }
}
