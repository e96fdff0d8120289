import Entitlements
import Foundation
import Testing

/// The reader is chosen by content, never by file name: unwrapped profiles (XML or binary, any name) read their
/// `Entitlements`, and codesign output captured with `2>&1` reads past the raw blob header.
@Suite struct ContentDetectionTests {
    static func load(_ name: String) throws -> LoadedEntitlements {
        try EntitlementsLoader.load(
            FixtureFiles.path(name), variables: XcodeVariables(team: "Q7X2K9M4TD", bundleID: "com.example.ledger"),
            buildsRoot: FixtureFiles.buildsRoot)
    }

    @Test(
        "a profile's plist out of its envelope reads its Entitlements, XML or binary, whatever its name",
        arguments: [
            ("profile-unwrapped.plist", SourceKind.profilePlist), ("profile-binary.mobileprovision", .profilePlist),
            ("embedded.mobileprovision", .provisioningProfile),
        ])
    func unwrappedProfile(name: String, kind: SourceKind) throws {
        let loaded = try Self.load(name)
        let envelope = try ProvisioningProfile.read(try FixtureFiles.data("embedded.mobileprovision"), file: "p")
        #expect(loaded.kind == kind)
        #expect(loaded.entitlements == envelope.entitlements)
        #expect(loaded.entitlements.values["TeamIdentifier"] == nil)
        #expect(loaded.summary.hasSuffix("\"Ledger App Store\", team Q7X2K9M4TD, expires 2031-01-01T00:00:00Z"))
    }

    @Test("a profile diffed against its own unwrapped plist has no changes and passes")
    func profileAgainstItself() throws {
        let output = try EntitlementsDiffCommand.run(
            old: FixtureFiles.path("embedded.mobileprovision"), new: FixtureFiles.path("profile-unwrapped.plist"),
            team: nil, bundleID: nil, buildsRoot: FixtureFiles.buildsRoot, itemCounts: nil, json: false)
        #expect(output.exitCode == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("keys\n  (no changes)"))
    }

    @Test("show prints a profile plist's Entitlements, not the whole profile")
    func showProfile() throws {
        let output = try EntitlementsShowCommand.run(
            input: FixtureFiles.path("profile-unwrapped.plist"), team: nil, bundleID: nil, buildsRoot: "", info: false)
        #expect(output.exitCode == 0)
        let printed = try PropertyListReader.dictionary(from: Data(output.stdout.utf8), file: "stdout")
        #expect(printed["keychain-access-groups"]?.strings == ["Q7X2K9M4TD.*", "com.apple.token"])
        #expect(printed["DeveloperCertificates"] == nil && printed["AppIDName"] == nil)
    }

    @Test("entitlements that merely hold an Entitlements key are not taken for a profile")
    func notAProfile() throws {
        let xml = #"<plist version="1.0"><dict><key>Entitlements</key><dict/><key>Name</key><string>x</string></dict></plist>"#
        let loaded = try EntitlementsLoader.read(Data(xml.utf8), file: "e.plist", variables: XcodeVariables())
        #expect(loaded.kind == .xmlPlist)
    }

    @Test("a .mobileprovision that is neither an envelope nor a plist says what it is not")
    func badProfileName() {
        let error = #expect(throws: EntitlementsError.self) {
            try EntitlementsLoader.read(Data("hello".utf8), file: "x.mobileprovision", variables: XcodeVariables())
        }
        #expect(error?.description == "x.mobileprovision: not a CMS envelope: starts with 0x68, not a DER SEQUENCE (0x30)")
    }

    @Test("codesign output captured with 2>&1: Executable= line, raw 0xfade7171 blob header, then the XML")
    func codesignCaptured() throws {
        let loaded = try Self.load("codesign-stderr-stdout.txt")
        #expect(loaded.kind == .xmlPlist)
        #expect(loaded.entitlements == (try FixtureFiles.ledger()))
    }

    @Test(
        "a mistyped keychain key is bad input naming the key",
        arguments: [
            (
                "<key>keychain-access-groups</key><string>T.a</string>",
                "key keychain-access-groups is a string, not an array of strings"
            ),
            (
                "<key>com.apple.security.application-groups</key><array><integer>1</integer></array>",
                "key com.apple.security.application-groups element 0 is an integer, not a string"
            ),
            ("<key>application-identifier</key><true/>", "key application-identifier is a boolean, not a string"),
        ])
    func mistyped(body: String, problem: String) {
        let xml = #"<plist version="1.0"><dict>\#(body)</dict></plist>"#
        let error = #expect(throws: EntitlementsError.self) {
            try EntitlementsLoader.read(Data(xml.utf8), file: "e.plist", variables: XcodeVariables())
        }
        #expect(error?.description == "e.plist: \(problem)")
    }
}
