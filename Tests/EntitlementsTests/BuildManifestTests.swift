import Entitlements
import Foundation
import Testing
import TestSupport
import UpgradeContract

@Suite struct BuildManifestTests {
    func write(_ json: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("manifest")
        try Data(json.utf8).write(to: URL(fileURLWithPath: directory.file("build.json")))
        return directory
    }

    @Test("a manifest's signing fields read alone, the rest ignored; team is optional")
    func reads() throws {
        let directory = try write(#"{"id": "v1", "bundleID": "com.example.ledger", "entitlements": "e.plist", "sha256": "ab"}"#)
        let manifest = try BuildManifest.Signing.read(folder: directory.path)
        #expect(manifest == BuildManifest.Signing(id: "v1", bundleID: "com.example.ledger", team: nil, entitlements: "e.plist"))
    }

    @Test(
        "a bad manifest is one line naming build.json and the field",
        arguments: [
            (#"{"bundleID": "b", "entitlements": "e"}"#, #"field "id" is missing"#),
            (#"{"id": 1, "bundleID": "b", "entitlements": "e"}"#, #"field "id" has the wrong type"#),
            (#"{"id": "v", "bundleID": null, "entitlements": "e"}"#, #"field "bundleID" is null"#),
            (#"{"id": "v""#, "not valid JSON"),
        ])
    func bad(json: String, problem: String) throws {
        let directory = try write(json)
        let error = #expect(throws: EntitlementsError.self) { try BuildManifest.Signing.read(folder: directory.path) }
        #expect(error?.file == directory.file("build.json"))
        #expect(error?.problem == problem)
    }

    @Test("a manifest naming a missing entitlements file says so")
    func missingEntitlements() throws {
        let directory = try write(#"{"id": "v1", "bundleID": "b", "entitlements": "gone.entitlements"}"#)
        let error = #expect(throws: EntitlementsError.self) {
            try EntitlementsLoader.load(directory.path, variables: XcodeVariables(), buildsRoot: "/nonexistent")
        }
        #expect(
            error?.description == "\(directory.file("gone.entitlements")): no such file (named by \"entitlements\" in build.json)"
        )
    }

    @Test("a build's own team and bundle id expand its .entitlements file, over those passed in")
    func manifestWins() throws {
        let loaded = try EntitlementsLoader.load(
            "transfer", variables: XcodeVariables(team: "IGNOREDXXX", bundleID: "ignored"),
            buildsRoot: FixtureFiles.buildsRoot)
        #expect(loaded.entitlements.applicationIdentifier == "N3WT3AM999.com.example.ledger")
        #expect(loaded.kind == .build)
    }
}
