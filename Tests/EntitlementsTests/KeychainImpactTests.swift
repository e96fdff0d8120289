import Entitlements
import Testing

@Suite struct KeychainImpactTests {
    static func ents(
        app: String? = "AAAAAAAAAA.com.example.app", groups: [String] = [], appGroups: [String] = [],
        extra: [String: PlistValue] = [:]
    ) -> Entitlements {
        var values = extra
        if let app { values["application-identifier"] = .string(app) }
        if !groups.isEmpty { values["keychain-access-groups"] = .array(groups.map(PlistValue.string)) }
        if !appGroups.isEmpty { values["com.apple.security.application-groups"] = .array(appGroups.map(PlistValue.string)) }
        return Entitlements(values)
    }

    static func ids(_ findings: [Finding]) -> [String] {
        findings.map { "\($0.severity.rawValue) \($0.id.rawValue) \($0.subject ?? "-")" }
    }

    @Test(
        "each kind of change yields its finding",
        arguments: [
            // name, old, new, expected findings
            ("identical", ents(groups: ["AAAAAAAAAA.a"]), ents(groups: ["AAAAAAAAAA.a"]), [String]()),
            ("group added at the end", ents(groups: ["AAAAAAAAAA.a"]), ents(groups: ["AAAAAAAAAA.a", "AAAAAAAAAA.b"]), []),
            (
                "group removed", ents(groups: ["AAAAAAAAAA.a", "AAAAAAAAAA.b"]), ents(groups: ["AAAAAAAAAA.a"]),
                ["error unreachable-group AAAAAAAAAA.b"]
            ),
            (
                "reordered", ents(groups: ["AAAAAAAAAA.a", "AAAAAAAAAA.b"]), ents(groups: ["AAAAAAAAAA.b", "AAAAAAAAAA.a"]),
                ["warning first-group-changed AAAAAAAAAA.b"]
            ),
            (
                "group inserted first", ents(), ents(groups: ["AAAAAAAAAA.shared"]),
                ["warning first-group-changed AAAAAAAAAA.shared"]
            ),
            (
                "team changed", ents(), ents(app: "BBBBBBBBBB.com.example.app"),
                [
                    "error team-changed AAAAAAAAAA -> BBBBBBBBBB", "error unreachable-group AAAAAAAAAA.com.example.app",
                    "warning first-group-changed BBBBBBBBBB.com.example.app",
                ]
            ),
            ("app group added", ents(), ents(appGroups: ["group.x"]), ["info app-group-added group.x"]),
            (
                "app group removed", ents(appGroups: ["group.x"]), ents(),
                ["error unreachable-group group.x", "warning app-group-removed group.x"]
            ),
            (
                "development signing", ents(extra: ["get-task-allow": .bool(true)]),
                ents(extra: ["aps-environment": .string("development")]),
                ["info development-signing old", "warning development-signing new"]
            ),
            ("no access groups", ents(app: nil), ents(app: nil), ["warning no-access-groups new"]),
            (
                "wildcard profile grants, and has no first group", ents(groups: ["AAAAAAAAAA.a"]), ents(groups: ["AAAAAAAAAA.*"]),
                []
            ),
            (
                "wildcard does not grant another team", ents(groups: ["AAAAAAAAAA.a"]), ents(groups: ["BBBBBBBBBB.*"]),
                ["error unreachable-group AAAAAAAAAA.a"]
            ),
        ])
    func kinds(name: String, old: Entitlements, new: Entitlements, expected: [String]) {
        #expect(Self.ids(KeychainImpact.findings(old: old, new: new, itemCounts: nil)) == expected, "\(name)")
    }

    @Test("item counts turn could-hold into counts, and empty groups into info")
    func counts() throws {
        let old = Self.ents(groups: ["AAAAAAAAAA.a", "AAAAAAAAAA.b", "AAAAAAAAAA.c"])
        let new = Self.ents(groups: ["AAAAAAAAAA.a"])
        let findings = KeychainImpact.findings(old: old, new: new, itemCounts: ["AAAAAAAAAA.b": 3, "AAAAAAAAAA.c": 0])
        #expect(Self.ids(findings) == ["error unreachable-group AAAAAAAAAA.b", "info unreachable-group AAAAAAAAAA.c"])
        #expect(findings.map(\.items) == [3, 0])
        #expect(findings[0].message == "3 items in access group AAAAAAAAAA.b that the new build could no longer reach")
    }

    @Test("a team change after a bridge (old team's groups empty on the device) is a warning, and names the shared app group")
    func bridge() throws {
        let old = Self.ents(appGroups: ["group.shared"])
        let new = Self.ents(app: "BBBBBBBBBB.com.example.app", appGroups: ["group.shared"])
        let bridged = KeychainImpact.findings(
            old: old, new: new, itemCounts: ["AAAAAAAAAA.com.example.app": 0, "group.shared": 4])
        let team = try #require(bridged.first)
        #expect(team.id == .teamChanged && team.severity == .warning)
        #expect(team.message.contains("Both builds list group.shared, which a bridge can use."))
        #expect(team.message.hasSuffix("The device holds no items in AAAAAAAAAA-prefixed groups, as after a bridge."))
        #expect(!bridged.contains { $0.severity == .error })

        let stranded = KeychainImpact.findings(old: old, new: new, itemCounts: ["AAAAAAAAAA.com.example.app": 2])
        #expect(stranded.first?.severity == .error)
        #expect(stranded.first?.items == 2)
    }

    @Test("a team change with no shared app group says no bridge can work")
    func noBridge() throws {
        let findings = KeychainImpact.findings(
            old: Self.ents(), new: Self.ents(app: "BBBBBBBBBB.com.example.app"), itemCounts: nil)
        #expect(findings.first?.message.hasSuffix("The builds share no app group, so no bridge can work as they stand.") == true)
    }
}
