import Entitlements
import Testing

@Suite struct EntitlementsModelTests {
    @Test("typed accessors read the keychain-relevant keys")
    func accessors() throws {
        let ledger = try FixtureFiles.ledger()
        #expect(ledger.applicationIdentifier == "Q7X2K9M4TD.com.example.ledger")
        #expect(ledger.teamIdentifier == "Q7X2K9M4TD")
        #expect(ledger.applicationGroups == ["group.com.example.ledger"])
        #expect(ledger.getTaskAllow == false)
        #expect(ledger.apsEnvironment == "production")
        #expect(ledger.developmentMarkers.isEmpty)
    }

    @Test("access groups follow securityd's order and drop duplicates")
    func order() throws {
        let ledger = try FixtureFiles.ledger()
        #expect(
            ledger.accessGroups == ["Q7X2K9M4TD.com.example.ledger", "Q7X2K9M4TD.com.example.shared", "group.com.example.ledger"])
        let noGroups = Entitlements([
            "application-identifier": .string("T.app"), "com.apple.security.application-groups": .array([.string("group.a")]),
        ])
        #expect(noGroups.accessGroups == ["T.app", "group.a"])
    }

    @Test(
        "the team comes from the app id prefix, else from com.apple.developer.team-identifier",
        arguments: [
            (["application-identifier": PlistValue.string("AAAAAAAAAA.x")], "AAAAAAAAAA"),
            (["com.apple.application-identifier": .string("BBBBBBBBBB.x")], "BBBBBBBBBB"),
            (["com.apple.developer.team-identifier": .string("CCCCCCCCCC")], "CCCCCCCCCC"),
            ([:], nil),
        ] as [([String: PlistValue], String?)])
    func team(values: [String: PlistValue], team: String?) {
        #expect(Entitlements(values).teamIdentifier == team)
    }

    @Test("development markers: get-task-allow true and aps-environment development")
    func development() {
        let dev = Entitlements(["get-task-allow": .bool(true), "aps-environment": .string("development")])
        #expect(dev.developmentMarkers == ["get-task-allow true", "aps-environment development"])
        #expect(Entitlements(["com.apple.security.get-task-allow": .bool(true)]).getTaskAllow == true)
    }
}
