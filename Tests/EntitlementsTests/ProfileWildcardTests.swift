import Entitlements
import Foundation
import Testing

/// A profile's wildcard group (`TEAM.*`) on the old side is reported as what it is: a pattern that granted groups,
/// not an access group that holds items.
@Suite struct ProfileWildcardTests {
    static func ents(_ groups: [String]) -> Entitlements {
        Entitlements([
            "application-identifier": .string("AAAAAAAAAA.com.example.app"),
            "keychain-access-groups": .array(groups.map(PlistValue.string)),
        ])
    }

    @Test(
        "the wildcard is a profile-wildcard finding: a warning without counts, by the matched groups' items with them",
        arguments: [
            (nil, Finding.Severity.warning, nil),
            (["AAAAAAAAAA.com.example.app": 4, "AAAAAAAAAA.other": 0], .info, 0),
            (["AAAAAAAAAA.com.example.app": 4, "AAAAAAAAAA.other": 2, "BBBBBBBBBB.x": 7], .error, 2),
        ] as [([String: Int]?, Finding.Severity, Int?)])
    func wildcard(counts: [String: Int]?, severity: Finding.Severity, items: Int?) throws {
        let findings = KeychainImpact.findings(
            old: Self.ents(["AAAAAAAAAA.*"]), new: Self.ents(["AAAAAAAAAA.com.example.app"]), itemCounts: counts)
        let finding = try #require(findings.first { $0.subject == "AAAAAAAAAA.*" })
        #expect(finding.id == .profileWildcard)
        #expect(finding.severity == severity)
        #expect(finding.items == items)
        #expect(finding.message.hasPrefix("AAAAAAAAAA.* is a provisioning profile's wildcard"))
        #expect(!finding.message.contains("could hold the old build's items"))
        #expect(!findings.contains { $0.id == .unreachableGroup })
    }

    @Test("the fixture profile against the app it signs names the wildcard and the groups the app keeps")
    func profileToApp() throws {
        let output = try EntitlementsDiffCommand.run(
            old: FixtureFiles.path("embedded.mobileprovision"), new: FixtureFiles.path("Ledger.app"), team: nil,
            bundleID: nil, buildsRoot: FixtureFiles.buildsRoot, itemCounts: nil, json: false)
        // The app does not list the profile's concrete com.apple.token, which stays an unreachable group.
        #expect(output.exitCode == 1)
        #expect(output.stdout.components(separatedBy: "unreachable-group [").count == 2)
        #expect(output.stdout.contains("unreachable-group [com.apple.token]"))
        #expect(
            output.stdout.contains(
                "warning profile-wildcard [Q7X2K9M4TD.*]: Q7X2K9M4TD.* is a provisioning profile's wildcard: it let the old "
                    + "side's builds use any group it matches, but holds no items itself; the new build is granted only "
                    + "Q7X2K9M4TD.com.example.ledger, Q7X2K9M4TD.com.example.shared,"))
    }

    @Test("with item counts the report's total counts the device's groups the wildcard matches")
    func totals() throws {
        let output = try EntitlementsDiffCommand.run(
            old: FixtureFiles.path("embedded.mobileprovision"), new: FixtureFiles.path("Ledger.app"), team: nil,
            bundleID: nil, buildsRoot: FixtureFiles.buildsRoot,
            itemCounts: ["Q7X2K9M4TD.com.example.ledger": 3, "Q7X2K9M4TD.com.example.gone": 2], json: false)
        #expect(output.exitCode == 1)
        #expect(output.stdout.contains("items the new build could no longer reach: 2 of 5 in the old build's groups"))
    }
}
