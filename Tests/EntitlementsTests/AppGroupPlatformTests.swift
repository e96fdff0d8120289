import Entitlements
import Foundation
import Testing
import UpgradeContract

/// App group identifiers are validated by the rules of the platform the artifact is for, never more strictly than
/// Apple's tools: macOS takes `<TeamID>.<name>` as well as `group.` ones, iOS `group.` ones only, and `../../x` no one.
@Suite struct AppGroupPlatformTests {
    @Test("a macOS target's .entitlements with $(TeamIdentifierPrefix)valet.test is read, the group team-prefixed")
    func macOSTeamPrefixedGroup() throws {
        let loaded = try EntitlementsLoader.loadFile(
            FixtureFiles.path("macos/ValetTestHost.entitlements"),
            variables: XcodeVariables(team: "Q7X2K9M4TD", bundleID: "com.example.valet-macos-host"))
        #expect(loaded.kind == .xcodeEntitlements)
        #expect(loaded.entitlements.platform == .macOS)
        #expect(loaded.entitlements.applicationGroups == ["Q7X2K9M4TD.valet.test", "group.com.example.valet-shared"])
        #expect(loaded.entitlements.accessGroups.contains("Q7X2K9M4TD.valet.test"))
    }

    @Test(
        "each platform's app group forms",
        arguments: [
            // (entitlements besides the group, group, refused with)
            (["com.apple.security.app-sandbox": PlistValue.bool(true)], "Q7X2K9M4TD.valet.test", nil),
            (["com.apple.application-identifier": .string("Q7X2K9M4TD.com.example.mac")], "Q7X2K9M4TD.valet.test", nil),
            (["com.apple.security.app-sandbox": .bool(true)], "group.com.example.shared", nil),
            // The team of the application identifier is macOS's prefix whatever its shape.
            (["com.apple.application-identifier": .string("T.com.example.mac")], "T.valet.test", nil),
            // No key tells the platform (an Xcode file): either platform's form is taken.
            ([:], "Q7X2K9M4TD.valet.test", nil),
            ([:], "group.com.example.shared", nil),
            (["application-identifier": .string("Q7X2K9M4TD.com.example.app")], "group.com.example.shared", nil),
            (
                ["application-identifier": .string("Q7X2K9M4TD.com.example.app")], "Q7X2K9M4TD.valet.test",
                "is not an app group identifier (Q7X2K9M4TD.<name> is macOS's form)"
            ),
            (["com.apple.security.app-sandbox": .bool(true)], "../../x", "is not an app group identifier"),
            ([:], "../../x", "is not an app group identifier"),
            ([:], "com.example.shared", "is not an app group identifier"),
            (
                ["com.apple.security.app-sandbox": .bool(true)], "Q7X2K9M4TD./x",
                "is not an app group identifier: only letters, digits, - and ."
            ),
        ] as [([String: PlistValue], String, String?)])
    func forms(others: [String: PlistValue], group: String, refusal: String?) throws {
        var values = others
        values["com.apple.security.application-groups"] = .array([.string(group)])
        if let refusal {
            let error = #expect(throws: EntitlementsError.self) { try Entitlements(checking: values, file: "App.entitlements") }
            #expect(error?.description.contains("element 0 \"\(group)\" \(refusal)") == true, "\(String(describing: error))")
        } else {
            #expect(try Entitlements(checking: values, file: "App.entitlements").applicationGroups == [group])
        }
    }

    @Test("a build.json app group file store takes macOS's team-prefixed group as the build's entitlements do")
    func manifestTakesTeamPrefixed() {
        #expect(AppGroupID.problem("Q7X2K9M4TD.valet.test", platform: .unknown) == nil)
        #expect(AppGroupID.problem("Q7X2K9M4TD.valet.test", platform: .iOS) != nil)
        #expect(AppGroupID.problem("../../x", platform: .unknown) != nil)
    }
}
