import Foundation
import Testing
import UpgradeContract

/// `build.json` has one owner: the installer's whole manifest and the entitlements reader's signing fields are
/// both ``BuildManifest``'s, with its rules.
@Suite struct BuildManifestTests {
    static let whole = #"""
        {"id": "v1", "bundleID": "com.example.app", "marketingVersion": "1.0", "buildNumber": "100",
         "executable": "App", "schemaVersion": 0, "entitlements": "App.entitlements", "team": "TEAMAAAAAA",
         "settings": {"APP_BUNDLE_ID": "com.example.app"}}
        """#

    func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    @Test("every manifest in builds/ decodes whole and breaks no rule")
    func realBuilds() throws {
        let builds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("builds").path
        let manager = FileManager.default
        var folders: [String] = []
        for parent in [builds, builds + "/mutants"] {
            for name in try manager.contentsOfDirectory(atPath: parent).sorted()
            where manager.fileExists(atPath: parent + "/" + name + "/" + BuildManifest.fileName) {
                folders.append(parent + "/" + name)
            }
        }
        #expect(folders.count > 20)
        for folder in folders {
            let data = try #require(manager.contents(atPath: folder + "/" + BuildManifest.fileName))
            let manifest = try JSONDecoder().decode(BuildManifest.self, from: data)
            #expect(manifest.problem(folderName: (folder as NSString).lastPathComponent) == nil, "\(folder)")
            #expect(manifest.declarationProblem() == nil, "\(folder)")
        }
    }

    @Test("the signing fields are the whole manifest's, and read alone from a folder that has only them")
    func signing() throws {
        let whole = try decode(BuildManifest.self, Self.whole)
        let signing = try decode(BuildManifest.Signing.self, Self.whole)
        #expect(
            signing
                == BuildManifest.Signing(
                    id: whole.id, bundleID: whole.bundleID, team: "TEAMAAAAAA", entitlements: whole.entitlements,
                    settings: ["APP_BUNDLE_ID": "com.example.app"]))
        let minimal = #"{"id": "v1", "bundleID": "b", "entitlements": "e.plist"}"#
        #expect(try decode(BuildManifest.Signing.self, minimal).team == nil)
        #expect(throws: DecodingError.self) { try decode(BuildManifest.self, minimal) }
    }

    @Test("a mistyped team is the signing reader's to refuse; the whole manifest passes it over")
    func mistypedTeam() throws {
        let json = Self.whole.replacingOccurrences(of: #""TEAMAAAAAA""#, with: "5")
        #expect(throws: Never.self) { try decode(BuildManifest.self, json) }
        #expect(throws: DecodingError.self) { try decode(BuildManifest.Signing.self, json) }
    }

    @Test(
        "each rule names its field",
        arguments: [
            (#""id": "v1""#, #""id": " ""#, #"field "id" is empty"#),
            (#""id": "v1""#, #""id": "v2""#, #"field "id" is "v2" but the folder is v1"#),
            (#""executable": "App""#, #""executable": "../App""#, #"field "executable" must be a plain file name, not "../App""#),
            (
                #""entitlements": "App.entitlements""#, #""entitlements": ".e""#,
                #"field "entitlements" must be a plain file name, not ".e""#
            ),
            (#""buildNumber": "100""#, #""buildNumber": "1.x""#, #"field "buildNumber" is "1.x", not dotted integers"#),
        ])
    func rules(field: String, replacement: String, reason: String) throws {
        let manifest = try decode(BuildManifest.self, Self.whole.replacingOccurrences(of: field, with: replacement))
        #expect(manifest.problem(folderName: "v1") == reason)
    }

    @Test("the whole manifest the rules start from breaks none of them")
    func wholeIsValid() throws {
        #expect(try decode(BuildManifest.self, Self.whole).problem(folderName: "v1") == nil)
    }
}
