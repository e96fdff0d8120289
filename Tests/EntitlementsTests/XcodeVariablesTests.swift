import Entitlements
import Foundation
import Testing

@Suite struct XcodeVariablesTests {
    @Test("an Xcode .entitlements file expands the team and bundle id variables")
    func expands() throws {
        let loaded = try EntitlementsLoader.loadFile(
            FixtureFiles.path("Ledger.entitlements"),
            variables: XcodeVariables(team: "Q7X2K9M4TD", bundleID: "com.example.ledger"))
        #expect(loaded.kind == .xcodeEntitlements)
        #expect(loaded.entitlements.keychainAccessGroups == ["Q7X2K9M4TD.com.example.ledger", "Q7X2K9M4TD.com.example.shared"])
        #expect(loaded.entitlements.applicationGroups == ["group.com.example.ledger"])
    }

    @Test(
        "each variable form expands",
        arguments: [
            ("$(AppIdentifierPrefix)x", "TEAM123456.x"),
            ("$(TeamIdentifierPrefix)x", "TEAM123456.x"),
            ("${PRODUCT_BUNDLE_IDENTIFIER}", "com.example.app"),
            ("$(CFBundleIdentifier).widget", "com.example.app.widget"),
            ("$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier)", "com.example.app"),
            ("$(DEVELOPMENT_TEAM)", "TEAM123456"),
            ("cost $5", "cost $5"),
            ("no variables", "no variables"),
        ])
    func forms(text: String, expected: String) throws {
        let variables = XcodeVariables(team: "TEAM123456", bundleID: "com.example.app")
        #expect(try variables.expand(["k": .string(text)], file: "f") == ["k": .string(expected)])
    }

    @Test(
        "a variable left unexpanded is an error naming it",
        arguments: [
            (
                "Unknown.entitlements", "TEAM123456",
                "key keychain-access-groups[0]: variable $(MY_CUSTOM_GROUP) left unexpanded: unknown build setting "
                    + "MY_CUSTOM_GROUP (give it with --setting MY_CUSTOM_GROUP=VALUE or --settings FILE)"
            ),
            (
                "Ledger.entitlements", nil,
                "key keychain-access-groups[0]: variable $(AppIdentifierPrefix) left unexpanded: it needs a team id "
                    + "(pass --team or --setting DEVELOPMENT_TEAM=..., or set \"team\" in the build manifest)"
            ),
        ] as [(String, String?, String)])
    func unexpanded(name: String, team: String?, problem: String) {
        let error = #expect(throws: EntitlementsError.self) {
            try EntitlementsLoader.loadFile(
                FixtureFiles.path(name), variables: XcodeVariables(team: team, bundleID: "com.example.ledger"))
        }
        #expect(error?.problem == problem)
        #expect(error?.file.hasSuffix(name) == true)
    }

    @Test("a missing bundle id and an unterminated reference are errors")
    func missingBundle() {
        let noBundle = #expect(throws: EntitlementsError.self) {
            try XcodeVariables(team: "T").expand(["k": .string("$(PRODUCT_BUNDLE_IDENTIFIER)")], file: "f")
        }
        #expect(
            noBundle?.problem.hasPrefix("key k: variable $(PRODUCT_BUNDLE_IDENTIFIER) left unexpanded: it needs a bundle id")
                == true)
        let open = #expect(throws: EntitlementsError.self) {
            try XcodeVariables(team: "T").expand(["k": .string("$(AppIdentifierPrefix")], file: "f")
        }
        #expect(open?.problem == "key k: unterminated variable $(AppIdentifierPrefix")
    }
}
