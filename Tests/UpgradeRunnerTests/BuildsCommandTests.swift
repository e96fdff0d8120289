import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// `builds`: the listing, an executable that is not built, and malformed build folders.
@Suite struct BuildsCommandTests {
    struct Listed: Decodable, Equatable {
        var id: String
        var marketingVersion: String
        var buildNumber: String
        var bundleID: String
        var team: String?
        var accessGroups: [String]
        var executableSHA256: String
        var entitlementsSHA256: String
    }

    @Test("lists every build with versions, team, access groups in keychain order and both sha256; not built reads missing")
    func listing() throws {
        let cli = try CLI()
        let v1 = try BuildFixture.write(in: cli.builds, id: "v1", team: "TEAMAAAAAA", groups: ["group.com.example.tiny"])
        try BuildFixture.write(in: cli.builds, id: "v2", marketingVersion: "2.0", buildNumber: "200", executable: "NotBuilt")
        let result = cli.run(["builds", "--json"])
        #expect(result.code == 0, "\(result.error)")
        let listed = try JSONDecoder().decode([Listed].self, from: Data(result.output.utf8))
        #expect(listed.map(\.id) == ["v1", "v2"])
        #expect(
            listed[0]
                == Listed(
                    id: "v1", marketingVersion: "1.0", buildNumber: "100", bundleID: "com.example.tiny", team: "TEAMAAAAAA",
                    accessGroups: ["TEAMAAAAAA.com.example.tiny", "group.com.example.tiny"],
                    executableSHA256: try GateHash.hexOfFile(atPath: BuiltProducts.executable("TinyApp")),
                    entitlementsSHA256: try GateHash.hexOfFile(atPath: v1 + "/App.entitlements")))
        #expect(listed[1].executableSHA256 == "missing" && listed[1].marketingVersion == "2.0")

        let text = cli.run(["builds"])
        #expect(text.code == 0)
        #expect(text.output.contains("v2  2.0 (200)  com.example.tiny  team TEAM123456\n"))
        #expect(text.output.contains("executable:    missing (not built)  NotBuilt"))
    }

    @Test("a known-bad build whose executable is not built is read from mutants/ and listed as missing")
    func mutantNotBuilt() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.write(in: cli.builds + "/mutants", id: "bad-one", executable: "NotBuilt")
        let result = cli.run(["builds", "--json"])
        #expect(result.code == 0, "\(result.error)")
        let listed = try JSONDecoder().decode([Listed].self, from: Data(result.output.utf8))
        #expect(listed.map(\.id) == ["v1", "bad-one"])
        #expect(listed.last?.executableSHA256 == "missing")
    }

    @Test("a malformed build folder is reported on standard error with its path; the others are still listed; exit 2")
    func malformed() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1")
        let bad = try BuildFixture.write(in: cli.builds, id: "v2")
        try "{\"id\": \"v2\"}".write(toFile: bad + "/build.json", atomically: true, encoding: .utf8)
        let empty = cli.builds + "/v3"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let junk = try BuildFixture.write(in: cli.builds, id: "v4")
        try "junk".write(toFile: junk + "/App.entitlements", atomically: true, encoding: .utf8)
        let result = cli.run(["builds"])
        #expect(result.code == 2)
        #expect(result.output.hasPrefix("v1  1.0 (100)"))
        #expect(!result.output.contains("v2  ") && !result.output.contains("v4  "))
        let errors = result.error.split(separator: "\n").map(String.init)
        #expect(
            errors == [
                "error: \(bad)/build.json: field \"bundleID\" is missing",
                "error: \(empty)/build.json: build manifest is missing",
                "error: \(junk)/App.entitlements: line 1: expected a property list or codesign's [Dict] form, found \"junk\"",
            ])
    }

    @Test("a builds folder that is not there is refused naming it")
    func missingFolder() throws {
        let cli = try CLI()
        cli.expectRefused(["builds", "--builds-dir", cli.directory.file("nope")], naming: cli.directory.file("nope"))
    }
}
