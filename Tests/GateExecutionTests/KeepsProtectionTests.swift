import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import TestSupport
import Testing
import UpgradeContract

/// keeps-protection: each secret is protected after the upgrade at least as the old build protected it, unless the
/// new build declares `"protection": "widens"` with a reason. On hand-made locked-reads facts, and end to end on the
/// known-bad build that re-saves its ThisDeviceOnly items with kSecAttrAccessibleAfterFirstUnlock.
@Suite("keeps-protection")
struct KeepsProtectionTests {
    private static func keychain(_ pdmn: String, sync: Bool = false) -> SecretProtection {
        .keychain(accessible: pdmn, synchronizable: sync)
    }

    @Test(
        "the widenings: ThisDeviceOnly dropped, made synchronizable, out of the keychain into a file, a file's class lowered",
        arguments: [
            (keychain("cku"), keychain("ck"), ["moved from a ThisDeviceOnly class (cku) to one that travels in backups (ck)"]),
            (keychain("aku"), keychain("dk"), ["moved from a ThisDeviceOnly class (aku) to one that travels in backups (dk)"]),
            (keychain("ck"), keychain("ck", sync: true), ["made synchronizable"]),
            (
                keychain("ak"), .file(.complete),
                ["moved out of the keychain (ak) into a plaintext file (NSFileProtectionComplete)"]
            ),
            (
                .file(.complete), .file(.completeUntilFirstUserAuthentication),
                [
                    "its file's data protection lowered from NSFileProtectionComplete to NSFileProtectionCompleteUntilFirstUserAuthentication"
                ]
            ),
            // Narrowing, or as strong: none.
            (keychain("ck"), keychain("cku"), []),
            (keychain("ak"), keychain("cku"), []),
            (keychain("cku", sync: true), keychain("cku"), []),
            (.file(.completeUntilFirstUserAuthentication), keychain("ck"), []),
            (.file(.none), .file(.complete), []),
            (.file(.default), .file(.default), []),
        ] as [(SecretProtection, SecretProtection, [String])])
    func widenings(old: SecretProtection, new: SecretProtection, expected: [String]) {
        #expect(SecretProtection.widenings(from: old, to: new) == expected)
    }

    /// A locked-reads cell of a small app (a PIN and a token) whose token moved from `oldToken` to `newToken`.
    private func cell(_ oldToken: SecretProtection, _ newToken: SecretProtection, policies: BuildPolicies? = nil) -> CellEvidence
    {
        var cell = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "pins1", new: "pins2"), scenario: .lockedReads), runtime: .current, caseID: "c")
        let declaration = BuildDeclaration(secrets: [
            DeclaredItem(label: "pin", store: .keychain(KeychainItemDeclaration(service: "com.example.pins", account: "pin"))),
            DeclaredItem(
                label: "token", store: .keychain(KeychainItemDeclaration(service: "com.example.pins", account: "token"))),
        ])
        cell.declarations = CaseDeclarations(caseID: "c", old: declaration, new: declaration, newPolicies: policies)
        cell.seeded = ["pin", "token"]
        func place(_ protection: SecretProtection, _ name: String) -> SecretPlace {
            SecretPlace(description: "\(name) \(protection)", states: [.unlocked], protection: protection)
        }
        let pin = place(Self.keychain("cku"), "keychain genp com.example.pins/pin")
        cell.facts = .lockedReads(
            LockedReadsFacts(availability: [
                AvailabilityFact(label: "pin", old: pin, new: pin),
                AvailabilityFact(label: "token", old: place(oldToken, "old token"), new: place(newToken, "new token")),
            ]))
        let status = LaunchStatus(build: "pins1", mode: .seed, caseID: "c", runtime: "iOS 17.5", items: [], errors: [])
        cell.launches = [
            LaunchRecord(
                index: 1, build: "pins1", mode: .seed, caseID: "c", runtime: .current, termination: .exited(0),
                endedAtCrashPoint: false, status: status, duration: 0, mutations: [], deviceDirectory: "")
        ]
        return cell
    }

    @Test("a token re-saved without ThisDeviceOnly FAILs naming the token, the two places and the policy that would allow it")
    func widenedFails() {
        let findings = KeepsProtection.check(cell(Self.keychain("cku"), Self.keychain("ck")))
        #expect(findings.map(\.verdict) == [.fail] && findings[0].item == "token", "\(findings)")
        #expect(findings[0].message.contains("moved from a ThisDeviceOnly class (cku) to one that travels in backups (ck)"))
        #expect(findings[0].message.contains("declare \"protection\": \"widens\" with a reason"))
        let kept = KeepsProtection.check(cell(Self.keychain("ck"), Self.keychain("cku")))
        #expect(kept.map(\.verdict) == [.pass] && kept[0].message.contains("at least as the old build protected it: pin, token"))
    }

    @Test("declared as a policy with a reason, the same widening PASSes and the finding lists it beside the reason")
    func declaredPasses() {
        let policies = BuildPolicies(protection: .init(.widens, reason: "tokens sync to the user's other devices"))
        let findings = KeepsProtection.check(cell(Self.keychain("cku"), Self.keychain("ck", sync: true), policies: policies))
        #expect(findings.map(\.verdict) == [.pass], "\(findings)")
        #expect(
            findings[0].message.contains(
                "protection widened as declared (protection: widens, \"tokens sync to the user's other devices\")"))
        #expect(
            findings[0].message.contains(
                "token moved from a ThisDeviceOnly class (cku) to one that travels in backups (ck); made synchronizable"))
        // "keeps", declared, is the default: the widening fails.
        let keeps = BuildPolicies(protection: .init(.keeps, reason: "as before"))
        #expect(KeepsProtection.check(cell(Self.keychain("cku"), Self.keychain("ck"), policies: keeps)).map(\.verdict) == [.fail])
    }

    @Test("build.json's protection policy: widens and keeps are read, another word or a blank reason is bad input")
    func manifestPolicy() throws {
        let decoder = JSONDecoder()
        let widens = try decoder.decode(
            BuildPolicies.self, from: Data(#"{"protection": {"policy": "widens", "reason": "sync"}}"#.utf8))
        #expect(widens.protectionPolicy == .widens && widens.declared.map(\.topic) == ["protection"])
        #expect(try decoder.decode(BuildPolicies.self, from: Data("{}".utf8)).protectionPolicy == .keeps)
        #expect(throws: DecodingError.self) {
            try decoder.decode(BuildPolicies.self, from: Data(#"{"protection": {"policy": "loosens", "reason": "x"}}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(BuildPolicies.self, from: Data(#"{"protection": {"policy": "widens", "reason": " "}}"#.utf8))
        }
    }

    /// v2, v3, the known-bad protection-widened, and the same executable declaring the widening as a policy.
    static func buildsFolder(_ directory: TemporaryDirectory) throws -> String {
        let manager = FileManager.default
        let folder = directory.file("builds")
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for id in ["v2", "v3"] {
            try manager.createSymbolicLink(
                atPath: folder + "/" + id, withDestinationPath: BuiltProducts.repositoryBuilds + "/" + id)
        }
        try manager.createSymbolicLink(
            atPath: folder + "/protection-widened",
            withDestinationPath: BuiltProducts.repositoryBuilds + "/mutants/protection-widened")
        let declared = folder + "/protection-widened-declared"
        try manager.createDirectory(atPath: declared, withIntermediateDirectories: true)
        let source = BuiltProducts.repositoryBuilds + "/mutants/protection-widened"
        try manager.copyItem(atPath: source + "/Ledger.entitlements", toPath: declared + "/Ledger.entitlements")
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source + "/build.json")))
                as? [String: Any])
        manifest["id"] = "protection-widened-declared"
        manifest["standIn"] = true
        manifest["antiPattern"] = nil
        manifest["expectedCondition"] = nil
        manifest["policies"] = [
            "protection": ["policy": "widens", "reason": "a restored phone keeps the user signed in (product decision)"]
        ]
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(
            to: URL(fileURLWithPath: declared + "/build.json"))
        return folder
    }

    static func verdict(_ report: GateReport, _ condition: GateCondition) -> Verdict? {
        report.conditions.first { $0.condition == condition }?.verdict
    }

    @Test("end to end: protection-widened FAILs keeps-protection alone of locked-reads; declared, it PASSes; v3 PASSes")
    func endToEnd() throws {
        let directory = try TemporaryDirectory("keeps-protection")
        let builds = try Self.buildsFolder(directory)
        func gate(_ new: String) throws -> GateReport {
            try ReleaseGate.run(
                GateRequest(
                    builds: ["v2", new], scenarios: [.lockedReads], caseID: "protection", jobs: 2,
                    out: directory.file("out-" + new), buildsFolder: builds, productsFolder: BuiltProducts.directory.path))
        }
        let widened = try gate("protection-widened")
        #expect(widened.verdict == .fail)
        #expect(Self.verdict(widened, .keepsProtection) == .fail)
        #expect(Self.verdict(widened, .keepsAvailability) == .pass)
        #expect(
            widened.reasons.contains { $0.contains("keeps-protection") && $0.contains("travels in backups (ck)") },
            "\(widened.reasons)")
        let declared = try gate("protection-widened-declared")
        #expect(Self.verdict(declared, .keepsProtection) == .pass, "\(declared.reasons)")
        #expect(declared.policies?.contains { $0.topic == "protection" && $0.policy == "widens" } == true)
        let released = try gate("v3")
        #expect(released.verdict == .pass, "\(released.reasons)")
        #expect(Self.verdict(released, .keepsProtection) == .pass)
    }
}
