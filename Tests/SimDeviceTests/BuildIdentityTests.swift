import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// A build installs with the identity the Entitlements reader gives its entitlements file: the reader
/// `entitlements diff` uses, so variables are expanded and bad files are refused the same way.
@Suite struct BuildIdentityTests {
    /// Writes build `v1` whose entitlements file is `entitlements` (XML), with `team` in its manifest.
    func writeBuild(_ fixture: Fixture, entitlements: String, team: String?) throws {
        let folder = try BuildFixture.write(in: fixture.builds, id: "v1", bundleID: "com.example.tiny")
        try entitlements.write(toFile: folder + "/App.entitlements", atomically: true, encoding: .utf8)
        let manifest = folder + "/build.json"
        var object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as! [String: Any]
        object["team"] = team
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: manifest))
    }

    static let xcode = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>application-identifier</key><string>$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)</string>
        <key>keychain-access-groups</key><array>
        <string>$(AppIdentifierPrefix)com.example.shared</string><string>$(AppIdentifierPrefix)com.example.tiny</string>
        </array>
        <key>com.apple.security.application-groups</key><array><string>group.com.example.tiny</string></array>
        </dict></plist>
        """

    @Test("an .entitlements file with $(AppIdentifierPrefix) installs expanded, groups in securityd's order")
    func expandedIdentity() throws {
        let fixture = try Fixture()
        try writeBuild(fixture, entitlements: Self.xcode, team: "TEAM123456")
        let session = try fixture.device.acquire()
        let app = try session.install(try fixture.catalog.build("v1"))
        #expect(app.record.identity.applicationIdentifier == "TEAM123456.com.example.tiny")
        #expect(
            app.record.identity.accessGroups == [
                "TEAM123456.com.example.shared", "TEAM123456.com.example.tiny", "group.com.example.tiny",
            ])
    }

    @Test(
        "an entitlements file the reader refuses names the file and the key",
        arguments: [
            (
                Self.xcode, nil,
                "key application-identifier: variable $(AppIdentifierPrefix) left unexpanded: it needs a team id"
            ),
            (
                #"<plist version="1.0"><dict><key>keychain-access-groups</key><string>T.a</string></dict></plist>"#,
                "TEAM123456", "key keychain-access-groups is a string, not an array of strings"
            ),
            (#"<plist version="1.0"><array/></plist>"#, "TEAM123456", "property list is an array, not a dictionary"),
        ] as [(String, String?, String)])
    func refused(entitlements: String, team: String?, problem: String) throws {
        let fixture = try Fixture()
        try writeBuild(fixture, entitlements: entitlements, team: team)
        let error = try #require(throws: DeviceError.self) { try fixture.catalog.build("v1") }
        #expect("\(error)".hasPrefix("\(fixture.builds)/v1/App.entitlements: \(problem)"), "\(error)")
    }
}
