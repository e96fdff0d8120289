import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import TestSupport
import Testing
@testable import UpgradeRunner
import UpgradeContract

/// `upgrade-runner declare`: a draft of a build's `keeps` from what its seed and plain launches
/// store, and the preflight line for a declaration that disagrees with the seed.
@Suite("Declare")
struct DeclareCommandTests {
    static let repositoryBuilds = Script.repositoryRoot + "/builds"

    /// A copy of the sample's `ids` build folders in the CLI's builds folder.
    private static func copyBuilds(_ ids: [String], into cli: CLI) throws {
        try FileManager.default.createDirectory(atPath: cli.builds, withIntermediateDirectories: true)
        for id in ids {
            try FileManager.default.copyItem(atPath: repositoryBuilds + "/" + id, toPath: cli.builds + "/" + id)
        }
    }

    private static func draft(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    private static func keeps(_ object: [String: Any]) throws -> BuildDeclaration {
        let data = try JSONSerialization.data(withJSONObject: try #require(object["keeps"]))
        return try JSONDecoder().decode(BuildDeclaration.self, from: data)
    }

    /// The draft's keeps against the hand-written ones: the same labels in the same order, each
    /// store the declared one (a field the hand-written declaration leaves out is not compared).
    private static func expectAgrees(_ drafted: BuildDeclaration, _ declared: BuildDeclaration, build: Build) {
        #expect(drafted.secretLabels == declared.secretLabels)
        for (mine, theirs) in zip(declared.secrets, drafted.secrets) {
            #expect(
                DeclarationDraft.sameStore(mine.store, theirs.store, build), "\(mine.label): \(mine.store) vs \(theirs.store)")
        }
        #expect(drafted.bookkeeping.count == declared.bookkeeping.count)
        for mine in declared.bookkeeping {
            #expect(
                drafted.bookkeeping.contains { DeclarationDraft.sameStore(mine.store, $0.store, build) }, "\(mine.label)")
        }
    }

    @Test("declare v1 drafts the hand-written declaration, the same bytes twice, with no secret value")
    func sampleV1() throws {
        let cli = try CLI("declare-v1")
        try Self.copyBuilds(["v1"], into: cli)
        let first = cli.run(["declare", "v1"])
        #expect(first.code == 0, "\(first.error)")
        #expect(first.error.isEmpty, "\(first.error)")
        let second = cli.run(["declare", "v1"])
        #expect(first.output == second.output, "declare is not deterministic")
        let object = try Self.draft(first.output)
        #expect(object["differences"] as? [String] == [])
        #expect(object["notes"] as? [String] == [])
        let build = try BuildCatalog(folder: cli.builds, productsFolder: BuiltProducts.directory.path).build("v1")
        Self.expectAgrees(try Self.keeps(object), try #require(build.manifest.keeps), build: build)
        // Per-case names come back as $(CASE_ID); every store the launches left is listed with its format.
        #expect(first.output.contains(#""service" : "com.example.ledger.uitest.$(CASE_ID)""#))
        #expect(first.output.contains(#""format" : "archive""#))
        #expect(!first.output.contains(BuildObservation.caseID))
        let secrets = CaseSecrets(caseID: BuildObservation.caseID)
        for label in build.manifest.keeps!.secretLabels {
            #expect(!first.output.contains(secrets[label]), "the value of \(label) is printed")
        }
    }

    @Test("declare --write replaces keeps and nothing else; without it build.json is left as it is")
    func write() throws {
        let cli = try CLI("declare-write")
        try Self.copyBuilds(["v1"], into: cli)
        let path = cli.builds + "/v1/build.json"
        // A declaration that is wrong in one field: declare reports it (exit 1) and leaves the file.
        let original = try String(contentsOfFile: path, encoding: .utf8)
        let wrong = original.replacingOccurrences(of: #""accessible": "ak""#, with: #""accessible": "cku""#)
        try wrong.write(toFile: path, atomically: true, encoding: .utf8)
        let report = cli.run(["declare", "v1"])
        #expect(report.code == 1)
        let differences = try Self.draft(report.output)["differences"] as? [String] ?? []
        #expect(
            differences == [
                #"keeps.secrets[3].store.accessible of "deviceKey" is "cku" but the build stored it with accessible "ak""#
            ])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == wrong, "declare without --write changed build.json")

        let written = cli.run(["declare", "v1", "--write"])
        #expect(written.code == 0, "\(written.error)")
        let manifest = try BuildCatalog(folder: cli.builds, productsFolder: BuiltProducts.directory.path).build("v1").manifest
        #expect(manifest.notes?.hasPrefix("legacy stores") == true)
        #expect(manifest.executable == "LedgerV1")
        let again = cli.run(["declare", "v1"])
        #expect(again.code == 0)
        #expect(try Self.draft(again.output)["differences"] as? [String] == [])
    }

    @Test("declare's bad usage is one line naming the build or the flag, exit 2")
    func badUsage() throws {
        let cli = try CLI("declare-usage")
        try Self.copyBuilds(["v1"], into: cli)
        for (words, naming) in [
            (["declare", "nope"], "nope"), (["declare", "v1", "--wirte"], "--wirte"),
            (["declare", "v1", "--timeout", "0"], "--timeout"), (["declare"], "BUILD"),
        ] {
            let result = cli.run(words)
            #expect(result.code == 2, "\(words)")
            #expect(result.error.split(separator: "\n").count == 1, "\(words): \(result.error)")
            #expect(result.error.contains(naming), "\(words): \(result.error)")
            #expect(result.output.isEmpty)
        }
    }

    @Test(
        "a declaration that disagrees with what the seed stored is one preflight line naming the build and the field",
        arguments: [
            (
                #""accessible": "ak""#, #""accessible": "cku""#,
                #"keeps.secrets[3].store.accessible of "deviceKey" is "cku" but the build stored it with accessible "ak""#
            ),
            (
                #""key": "refreshToken""#, #""key": "refresh""#,
                #"keeps.secrets[1].store.key of "refreshToken" is "refresh" but the build stored it at key "refreshToken""#
            ),
            (
                #""keyPath": "token""#, #""keyPath": "tokens""#,
                #"keeps.secrets[2].store.keyPath of "session" is "tokens" but the build stored it at keyPath "token""#
            ),
        ])
    func preflight(from: String, to: String, line: String) throws {
        let cli = try CLI("declare-preflight")
        try Self.copyBuilds(["v1"], into: cli)
        let path = cli.builds + "/v1/build.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: from, with: to).write(toFile: path, atomically: true, encoding: .utf8)
        let result = cli.run(["gate", "--builds", "v1", "--out", cli.directory.file("out"), "--quiet", "--case-id", "c1"])
        #expect(result.code == 2)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.contains("build v1: " + line), "\(result.error)")
        #expect(result.error.contains(path), "\(result.error)")
    }

    @Test(
        "a known-bad build's declaration is not held to its seed (its mistake is the gate's to catch), nor a stand-in's",
        arguments: [true, false])
    func exempt(knownBad: Bool) throws {
        let cli = try CLI("declare-mutant")
        try Self.copyBuilds(["v1"], into: cli)
        let path = cli.builds + "/v1/build.json"
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        if knownBad {
            object["antiPattern"] = "declares a protection class its seed does not use"
            object["expectedCondition"] = "keeps-protection"
        } else {
            object["standIn"] = true
        }
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        try text.replacingOccurrences(of: #""accessible":"ak""#, with: #""accessible":"cku""#).write(
            toFile: path, atomically: true, encoding: .utf8)
        let build = try BuildCatalog(folder: cli.builds, productsFolder: BuiltProducts.directory.path).build("v1")
        let devices = DeviceSet(root: cli.directory.file("devices"))
        try BuildPreflight.checkDeclaration(build, devices: devices, runtime: .current, timeout: 30, confined: true)
    }
}

extension DeclareCommandTests {
    @Test("a JSON file and an app group's plist and JSON: each secret at its key path, each file with its format")
    func appGroupStores() throws {
        let cli = try CLI("declare-groups")
        try InputsGateTests.writeSessionBuilds(in: cli.directory)
        let result = cli.run(["declare", "session4"])
        #expect(result.code == 0, "\(result.error) \(result.output)")
        let object = try Self.draft(result.output)
        #expect(object["differences"] as? [String] == [])
        let build = try BuildCatalog(folder: cli.builds, productsFolder: BuiltProducts.directory.path).build("session4")
        Self.expectAgrees(try Self.keeps(object), try #require(build.manifest.keeps), build: build)
        let stores = try #require(object["stores"] as? [[String: Any]])
        let files = stores.compactMap { entry -> String? in
            guard let store = entry["store"] as? [String: Any], let file = store["file"] as? String else { return nil }
            return "\(store["kind"] ?? "") \(store["group"] ?? "-") \(file) \(store["keyPath"] ?? "-") \(entry["format"] ?? "-")"
        }
        #expect(files.contains("plist \(InputsGateTests.group) shared.plist lock.pin plist"), "\(files)")
        #expect(files.contains("json \(InputsGateTests.group) share.json share.key json"), "\(files)")
        #expect(files.contains("json - Library/Application Support/session.json auth.token json"), "\(files)")
    }
}

/// How `declare` reads the files an app wrote.
@Suite("Store formats")
struct StoreFormatTests {
    @Test("plist, JSON, archive and raw files, and the key paths inside them")
    func formats() throws {
        let plist = try PropertyListSerialization.data(
            fromPropertyList: ["sync": ["password": "p"], "n": 1], format: .binary, options: 0)
        #expect(StoreFormat.of(plist) == .plist)
        #expect(StoreFormat.leaves(of: plist, as: .plist).map(\.keyPath) == ["n", "sync.password"])
        let xml = try PropertyListSerialization.data(fromPropertyList: ["a": "b"], format: .xml, options: 0)
        #expect(StoreFormat.of(xml) == .plist)
        let json = Data(#"{"auth": {"token": "t"}, "list": [1]}"#.utf8)
        #expect(StoreFormat.of(json) == .json)
        #expect(StoreFormat.leaves(of: json, as: .json).map(\.keyPath) == ["auth.token"])
        let archive = try NSKeyedArchiver.archivedData(
            withRootObject: ["token": "t", "user": "u"] as NSDictionary, requiringSecureCoding: false)
        #expect(StoreFormat.of(archive) == .archive)
        let leaves = StoreFormat.leaves(of: archive, as: .archive)
        #expect(leaves.map(\.keyPath) == ["token", "user"])
        #expect(leaves.first?.value as? String == "t")
        let root = try NSKeyedArchiver.archivedData(withRootObject: "t" as NSString, requiringSecureCoding: false)
        #expect(StoreFormat.leaves(of: root, as: .archive).map(\.keyPath) == [""])
        #expect(StoreFormat.of(Data("just text".utf8)) == .raw)
        #expect(StoreFormat.of(Data([0xff, 0x00, 0x01])) == .raw)
    }
}
