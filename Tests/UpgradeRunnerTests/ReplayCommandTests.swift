import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
@testable import UpgradeRunner

/// `replay`: refusals before anything runs (fixture builds, no app launched), and a real replay of a
/// Ledger run that reports identical, then the exact differences once the archive is edited.
@Suite struct ReplayCommandTests {
    /// A run folder for fixture builds v1 and v2 (TinyApp) pinned as they are now.
    private func archivedRun(_ cli: CLI, products: String? = nil) throws -> String {
        try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200")
        let folder = cli.directory.file("run")
        try RunFolders.write(try RunFolders.pinnedInputs(cli, builds: ["v1", "v2"], products: products), at: folder)
        return folder
    }

    @Test("a missing run.json is refused naming the file")
    func missingRunJSON() throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        try FileManager.default.removeItem(atPath: folder + "/run.json")
        cli.expectRefused(["replay", folder], naming: "\(folder)/run.json: is missing")
    }

    @Test(
        "run.json that is not JSON, or not a run's inputs, is refused naming the file",
        arguments: [
            "{", "{\"formatVersion\": 1}", "[]",
        ])
    func unparsableRunJSON(text: String) throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        try text.write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
        cli.expectRefused(["replay", folder], naming: "\(folder)/run.json: ")
    }

    @Test(
        "an edited run.json (its digest no longer gate.json's) is refused naming the file",
        arguments: [
            ("\"case-7\"", "\"case-8\""), ("\"fresh-install\",", ""), ("  ", "    "),
        ])
    func editedRunJSON(from: String, to: String) throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        let path = folder + "/run.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(from))
        try text.replacingOccurrences(of: from, with: to).write(toFile: path, atomically: true, encoding: .utf8)
        if to == "    " {
            // Reformatted, not edited: the inputs pass the check (the replay itself runs in ReplayLedgerTests).
            #expect(try ReplayRequest.archivedInputs(in: folder).caseID == "case-7")
        } else {
            cli.expectRefused(["replay", folder], naming: "\(path): was edited")
        }
    }

    @Test("a missing gate.json is refused naming it: run.json cannot be checked without it")
    func missingGateJSON() throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        try FileManager.default.removeItem(atPath: folder + "/gate.json")
        cli.expectRefused(["replay", folder], naming: "\(folder)/gate.json: is missing")
    }

    @Test("a folder that is not there is refused naming it")
    func missingFolder() throws {
        let cli = try CLI()
        cli.expectRefused(["replay", cli.directory.file("nope")], naming: cli.directory.file("nope"))
    }

    @Test("a build whose entitlements changed since the run is refused, naming the build, before anything runs")
    func entitlementsChanged() throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200", groups: ["group.com.example.shared"])
        cli.expectRefused(["replay", folder], naming: "build v2: entitlements sha256 is ")
        #expect(!FileManager.default.fileExists(atPath: folder + "-replay"))
    }

    @Test("a build whose executable changed since the run is refused, naming the build, before anything runs")
    func executableChanged() throws {
        let cli = try CLI()
        let products = cli.directory.file("products")
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: BuiltProducts.executable("TinyApp"), toPath: products + "/TinyApp")
        let folder = try archivedRun(cli, products: products)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: products + "/TinyApp"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        let result = cli.expectRefused(["replay", folder, "--products", products], naming: "build v1: executable sha256 is ")
        #expect(result.error.contains("run.json archived"))
    }

    @Test("an unknown build in run.json is refused naming it")
    func unknownBuild() throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        try FileManager.default.removeItem(atPath: cli.builds + "/v2")
        cli.expectRefused(["replay", folder], naming: "unknown build \"v2\"")
    }

    @Test("--out holding files that are not a run's is refused unless --force")
    func outInUse() throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        let other = cli.directory.file("other")
        try RunFolders.write(SampleGate.inputs(), at: other)
        try Data("x".utf8).write(to: URL(fileURLWithPath: other + "/notes.txt"))
        cli.expectRefused(["replay", folder, "--out", other], naming: "\(other): holds files that are not a run's (notes.txt)")
    }

    @Test("an interrupted run, and one whose verdict is UNKNOWN, are refused up front")
    func unfinishedRuns() throws {
        let cli = try CLI()
        let folder = try archivedRun(cli)
        try Data("in progress\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + GateArtifacts.inProgressMarker))
        cli.expectRefused(["replay", folder], naming: "\(folder): holds a run that did not finish")
        try FileManager.default.removeItem(atPath: folder + "/" + GateArtifacts.inProgressMarker)
        let inputs = try RunInputs.read(from: folder + "/run.json")
        let unknown = GateEngine.evaluate(
            expected: try inputs.plan().expectedCells(in: inputs.shard), findings: [], incomplete: ["a shard is missing"])
        try GateArtifacts.write(report: unknown, inputs: inputs, to: folder)
        cli.expectRefused(["replay", folder], naming: "\(folder): holds a run whose verdict is UNKNOWN (a shard is missing)")
        #expect(!FileManager.default.fileExists(atPath: folder + "-replay"), "nothing ran")
    }
}

/// A real replay of the Ledger builds (built by `swift test`).
@Suite struct ReplayLedgerTests {
    @Test(
        "replaying a run reports identical; an edited status file is reported by file and field; a removed one as only in replay")
    func replayLedger() throws {
        let cli = try CLI()
        let archived = cli.directory.file("archived")
        let common = ["--builds-dir", RunFolders.repositoryBuilds]
        let gate = cli.run(
            ["gate", "--builds", "v1,v2", "--scenarios", "upgrade", "--case-id", "replay-1", "--out", archived] + common)
        try #require(gate.code != 2 && gate.code != 3, "\(gate.error)")

        let same = cli.run(["replay", archived] + common)
        #expect(same.code == 0, "\(same.output)\(same.error)")
        #expect(same.output == "identical\n")
        #expect(FileManager.default.fileExists(atPath: archived + "-replay/gate.json"))

        let files = try StatusComparison.statusFiles(in: archived).sorted()
        try #require(files.count >= 3)
        let edited = archived + "/" + files[files.count - 1]
        var text = try String(contentsOfFile: edited, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"caseID\" : \"replay-1\"", with: "\"caseID\" : \"replay-2\"")
        try text.write(toFile: edited, atomically: true, encoding: .utf8)
        cli.expectRefused(["replay", archived] + common, naming: "\(edited): has sha256 ")
        try FileManager.default.removeItem(atPath: archived + "/" + files[0])
        cli.expectRefused(["replay", archived] + common, naming: "\(archived)/\(files[0]): is missing, but run.json pins it")

        // A run.json of an earlier runner pins nothing: the replay goes on with a note, and the
        // comparison names each difference.
        var inputs = try RunInputs.read(from: archived + "/run.json")
        inputs.archivePins = nil
        try GateJSON.pretty(inputs).write(to: URL(fileURLWithPath: archived + "/run.json"))
        let different = cli.run(["replay", archived] + common)
        #expect(different.code == 1)
        #expect(different.error.contains("pins no status or verdict files"), "\(different.error)")
        let lines = different.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("differs: \(files[files.count - 1])"), "\(different.output)")
        #expect(lines.contains("  caseID: archived \"replay-2\", replay \"replay-1\""), "\(different.output)")
        #expect(lines.contains("only in replay: \(files[0])"), "\(different.output)")
        #expect(lines.last == "1 of \(files.count - 1) status files differ; 0 only in archived, 1 only in replay")
    }
}

/// The comparison itself, on hand-written folders.
@Suite struct StatusComparisonTests {
    private func write(_ text: String, _ folder: String, _ file: String) throws {
        let path = folder + "/" + file
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test("fields that differ are named with both values; formatting-only and non-JSON differences are said so; logs are ignored")
    func fields() throws {
        let root = try TemporaryDirectory("compare")
        let a = root.file("a"), b = root.file("b")
        let status = "paths/v1-to-v2/upgrade/status/"
        try write(#"{"items":[{"name":"authToken","status":0}],"ok":true}"#, a, status + "01.json")
        try write(#"{"items":[{"name":"authToken","status":-25300},{"name":"x"}],"ok":true}"#, b, status + "01.json")
        try write(#"{"a":1,"b":2}"#, a, status + "02.json")
        try write("{\"b\": 2, \"a\": 1}", b, status + "02.json")
        try write("{}", a, status + "03.json")
        try write("not json", b, status + "03.json")
        try write("log at 12:00", a, "paths/v1-to-v2/upgrade/logs/01.log")
        try write("log at 12:01", b, "paths/v1-to-v2/upgrade/logs/01.log")
        let comparison = try StatusComparison.compare(archived: a, replay: b)
        #expect(comparison.compared == 3)
        #expect(comparison.differing.map(\.file) == [status + "01.json", status + "02.json", status + "03.json"])
        #expect(
            comparison.differing[0].fields.map(\.description) == [
                "items[0].status: archived 0, replay -25300", "items[1]: archived (absent), replay {\"name\":\"x\"}",
            ])
        #expect(comparison.differing[1].fields.isEmpty && comparison.differing[1].note == nil)
        #expect(comparison.differing[2].note == "the replay's file is not JSON")
    }

    @Test("values of a file that holds a seeded secret are withheld")
    func withheld() throws {
        let root = try TemporaryDirectory("compare")
        let a = root.file("a"), b = root.file("b")
        let file = "paths/v1-to-v2/upgrade/status/01.json"
        try write(#"{"token":"s3cret-value-1"}"#, a, file)
        try write(#"{"token":"other"}"#, b, file)
        let comparison = try StatusComparison.compare(
            archived: a, replay: b, secrets: [Secret(label: "authToken", value: Data("s3cret-value-1".utf8))])
        #expect(!comparison.report.joined().contains("s3cret"))
        #expect(comparison.differing[0].fields.map(\.field) == ["token"])
    }
}
