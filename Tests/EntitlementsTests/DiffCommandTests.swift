import Entitlements
import Foundation
import Testing
import TestSupport

@Suite struct DiffCommandTests {
    static func run(
        _ old: String, _ new: String, team: String? = nil, counts: [String: Int]? = nil, json: Bool = false
    )
        throws(EntitlementsError) -> EntitlementsDiffCommand.Output
    {
        try EntitlementsDiffCommand.run(
            old: old, new: new, team: team, bundleID: "com.example.ledger",
            buildsRoot: FixtureFiles.buildsRoot, itemCounts: counts, json: json)
    }

    /// Replaces the machine-specific fixture folder so golden files are the same everywhere.
    static func portable(_ text: String) -> String {
        text.replacingOccurrences(of: FixtureFiles.root + "/", with: "Fixtures/")
    }

    @Test(
        "rendered reports match their golden files",
        arguments: [
            ("v1-to-v3", "v1", "v3", nil),
            ("v3-to-reordered", "v3", "reordered", nil),
            ("v1-to-transfer", "v1", "transfer", nil),
            (
                "bridge-to-transfer-bridged", "bridge", "transfer",
                ["Q7X2K9M4TD.com.example.ledger": 0, "Q7X2K9M4TD.com.example.shared": 0, "group.com.example.ledger": 5]
            ),
            (
                "bridge-to-transfer-stranded", "bridge", "transfer",
                ["Q7X2K9M4TD.com.example.ledger": 4, "Q7X2K9M4TD.com.example.shared": 1, "group.com.example.ledger": 0]
            ),
            ("v3-to-dev", "v3", "dev", nil),
            ("app-to-profile", "Ledger.app", "embedded.mobileprovision", nil),
        ] as [(String, String, String, [String: Int]?)])
    func golden(name: String, old: String, new: String, counts: [String: Int]?) throws {
        let resolve = { (input: String) in input.contains(".") ? FixtureFiles.path(input) : input }
        for json in [false, true] {
            let output = try Self.run(resolve(old), resolve(new), counts: counts, json: json)
            #expect(output.stderr == "")
            let file = FixtureFiles.golden("\(name).\(json ? "json" : "txt")")
            let difference = TestSupport.Golden.compare(Self.portable(output.stdout), toFileAt: file)
            #expect(difference == nil)
        }
    }

    @Test(
        "the exit code is 0 when everything stays reachable, 1 when not",
        arguments: [
            ("v1", "v3", Int32(0)), ("v3", "reordered", 0), ("v3", "v1", 1), ("v1", "transfer", 1), ("v3", "dev", 0),
            ("v3", "v3", 0),
        ])
    func exitCodes(old: String, new: String, code: Int32) throws {
        #expect(try Self.run(old, new).exitCode == code)
    }

    @Test("any mix of inputs works: build id, build folder, .app, profile, executable, codesign output, binary plist")
    func mixes() throws {
        let inputs = [
            "v3", FixtureFiles.path("builds/v3"), FixtureFiles.path("Ledger.app"), FixtureFiles.path("ledger-x86_64.o"),
            FixtureFiles.path("codesign-text.txt"), FixtureFiles.path("codesign-colon.txt"), FixtureFiles.path("ledger.bplist"),
            FixtureFiles.path("Ledger.entitlements"),
        ]
        for input in inputs {
            let output = try Self.run(input, FixtureFiles.path("Ledger.app"), team: "Q7X2K9M4TD")
            #expect(output.exitCode == 0, "\(input): \(output.stderr)")
        }
    }

    @Test(
        "the loader detects each kind by content",
        arguments: [
            ("v1", SourceKind.build), ("Ledger.app", .appBundle), ("embedded.mobileprovision", .provisioningProfile),
            ("ledger-arm64.o", .machO), ("ledger.bplist", .binaryPlist), ("codesign-text.txt", .codesignText),
            ("codesign-colon.txt", .xmlPlist), ("Ledger.entitlements", .xcodeEntitlements),
        ])
    func kinds(input: String, kind: SourceKind) throws {
        let path = input == "v1" ? input : FixtureFiles.path(input)
        let loaded = try EntitlementsLoader.load(
            path, variables: XcodeVariables(team: "T", bundleID: "b"), buildsRoot: FixtureFiles.buildsRoot)
        #expect(loaded.kind == kind)
    }

    @Test(
        "bad input is thrown as one line naming the input (the command line exits 2)",
        arguments: [
            ("no-such-build", "no-such-build: no such file, folder or build id (build ids are looked up in BUILDS)"),
            ("array.plist", "FIXTURES/array.plist: property list is an array, not a dictionary"),
            (
                "Unknown.entitlements",
                "FIXTURES/Unknown.entitlements: key keychain-access-groups[0]: variable $(MY_CUSTOM_GROUP) left unexpanded: "
                    + "unknown build setting MY_CUSTOM_GROUP (give it with --setting MY_CUSTOM_GROUP=VALUE or --settings FILE)"
            ),
            ("src", "FIXTURES/src: folder is neither an app bundle (no Info.plist) nor a build (no build.json)"),
        ])
    func badInput(input: String, message: String) {
        let path = input == "no-such-build" ? input : FixtureFiles.path(input)
        let error = #expect(throws: EntitlementsError.self) { try Self.run("v1", path, team: "Q7X2K9M4TD") }
        let expected = message.replacingOccurrences(of: "BUILDS", with: FixtureFiles.buildsRoot)
            .replacingOccurrences(of: "FIXTURES", with: FixtureFiles.root)
        #expect(error?.description == expected)
    }

    @Test("a build manifest with a missing field, and negative item counts, are bad input")
    func badManifest() throws {
        let directory = try TemporaryDirectory("builds")
        try FileManager.default.createDirectory(atPath: directory.file("v9"), withIntermediateDirectories: true)
        try Data(#"{"id": "v9", "entitlements": "x.entitlements"}"#.utf8).write(
            to: URL(fileURLWithPath: directory.file("v9/build.json")))
        let error = #expect(throws: EntitlementsError.self) {
            try EntitlementsDiffCommand.run(
                old: "v9", new: "v9", team: nil, bundleID: nil, buildsRoot: directory.path,
                itemCounts: nil, json: false)
        }
        #expect(error?.description == "\(directory.file("v9/build.json")): field \"bundleID\" is missing")
        let negative = #expect(throws: EntitlementsError.self) { try Self.run("v1", "v3", counts: ["x": -1]) }
        #expect(negative?.description == "item count for access group x is negative")
    }

    @Test("the same inputs give the same bytes")
    func deterministic() throws {
        let first = try Self.run("bridge", "transfer", counts: ["a": 1, "b": 2], json: true)
        let second = try Self.run("bridge", "transfer", counts: ["b": 2, "a": 1], json: true)
        #expect(first == second)
    }
}
