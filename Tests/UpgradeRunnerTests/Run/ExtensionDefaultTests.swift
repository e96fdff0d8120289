import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
import UpgradeContract
@testable import UpgradeRunner

/// extension-first and interleavings run by default where the new build declares an app extension
/// (issue 39): run.json records which builds do (`extensions`, left out when none does), the plan
/// reads it, replay and the archived inputs carry each extension's files, and preflight launches
/// each extension once.
@Suite("extension scenarios by default: recorded in run.json, planned where the new build has an extension")
struct ExtensionDefaultTests {
    /// notes1 and notes2 of ExtensionSampleApp, each with its notification service extension.
    private static func notesBuilds(_ cli: CLI) throws {
        try ExtensionFirstGateTests.writeBuild(
            in: cli.builds, id: "notes1", version: "1.0", number: "100", service: "com.example.notes")
        try ExtensionFirstGateTests.writeBuild(
            in: cli.builds, id: "notes2", version: "2.0", number: "200", service: "com.example.notes.v2")
    }

    private static func object(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    @Test("the plan runs extension-first and interleavings on the upgrade paths whose new build declares an extension")
    func plan() throws {
        func units(_ extensions: [String: [String]]?) throws -> [String] {
            try GatePlan(builds: ["a", "b", "c"], scenarios: Scenario.gateDefault, extensions: extensions).units(in: nil)
                .filter(\.scenario.needsExtension).map(\.description)
        }
        #expect(
            try units(["c": ["notify"]]) == [
                "a-to-c/extension-first", "a-to-c/interleavings", "b-to-c/extension-first", "b-to-c/interleavings",
            ])
        // Recorded, and none declares one: none. Not recorded (a run.json of a runner before the record): every upgrade path.
        #expect(try units([:]).isEmpty)
        #expect(try units(nil).count == 6)
        // A single path takes them only when its new build declares one.
        let path = BuildPair(old: "a", new: "b")
        #expect(
            try GatePlan(path: path, scenarios: [.upgrade, .extensionFirst], extensions: ["a": ["n"]]).units(in: nil).count == 1)
        #expect(
            try GatePlan(path: path, scenarios: [.upgrade, .extensionFirst], extensions: ["b": ["n"]]).units(in: nil).count == 2)
    }

    @Test("builds without extensions: the default list leaves them out and run.json records nothing new; named, exit 2")
    func buildsWithoutExtensions() throws {
        let cli = try CLI()
        let out = cli.directory.file("plain")
        var request = GateRequest(
            builds: ["v1", "v2"], scenarios: [.upgrade, .extensionFirst, .interleavings], caseID: "plain-builds", jobs: 1,
            out: out, buildsFolder: RunFolders.repositoryBuilds, productsFolder: BuiltProducts.directory.path)
        let report = try ReleaseGate.run(request)
        #expect(report.verdict == .pass)
        let run = try Self.object(out + "/run.json")
        #expect(run["scenarios"] as? [String] == ["upgrade"])
        #expect(run["extensions"] == nil)
        #expect(!(try String(contentsOfFile: out + "/run.json", encoding: .utf8)).contains("extension"))
        // Named, they are bad input naming the field, before anything runs.
        request.scenariosNamed = true
        request.out = cli.directory.file("named")
        #expect(throws: GateError.self) { try ReleaseGate.run(request) }
        cli.expectRefused(
            ["gate", "--builds", "v1,v2", "--scenarios", "upgrade,extension-first", "--builds-dir", RunFolders.repositoryBuilds],
            naming: "--scenarios: \"upgrade,extension-first\" names extension-first, which runs only where the new build "
                + "declares an app extension (build.json \"extensions\"): no upgrade path of v1, v2 ends at a build that declares one"
        )
        cli.expectRefused(
            [
                "run", "--from", "v1", "--to", "v2", "--scenario", "interleavings", "--builds-dir", RunFolders.repositoryBuilds,
            ],
            naming: "--scenario: \"interleavings\" names interleavings, which runs only where the new build declares an app "
                + "extension (build.json \"extensions\"): v2 declares none")
    }

    @Test("an archived gate of builds with an extension records them, holds each extension's files and replays identically alone")
    func archivedExtensionReplays() throws {
        let cli = try CLI("extension-archive")
        try Self.notesBuilds(cli)
        let first = cli.directory.file("first")
        let gate = cli.run([
            "gate", "--builds", "notes1,notes2", "--skip-scenarios", Self.allBut([.upgrade, .extensionFirst]),
            "--case-id", "archive-extension", "--archive-inputs", "--out", first, "--quiet", "--jobs", "1",
        ])
        try #require(gate.code == 0, "\(gate.output)\(gate.error)")
        let inputs = try RunInputs.read(from: first + "/run.json")
        #expect(inputs.scenarios == [.upgrade, .extensionFirst])
        #expect(inputs.extensions == ["notes1": ["notify"], "notes2": ["notify"]])
        let pinned = try #require(inputs.buildFiles["notes2"]?.extensions?["notify"])
        #expect(pinned.executable == inputs.buildFiles["notes2"]!.executable, "ExtensionSampleApp plays both parts")
        let entry = try #require(inputs.archivedInputs?.builds["notes2"]?.extensions?["notify"])
        #expect(entry.entitlements == "inputs/builds/notes2/notify.entitlements")
        #expect(entry.executable == "inputs/executables/" + pinned.executable)
        #expect(FileManager.default.fileExists(atPath: first + "/" + entry.entitlements))

        let moved = cli.directory.file("elsewhere/run")
        try FileManager.default.createDirectory(atPath: cli.directory.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: first, toPath: moved)
        let replay = cli.run(cli.replayAlone(moved))
        #expect(replay.code == 0, "\(replay.output)\(replay.error)")
        #expect(replay.output == "identical\n")

        // An extension's archived entitlements changed: refused naming the file.
        try FileManager.default.removeItem(atPath: moved + "-replay")
        try Data("<plist/>".utf8).write(to: URL(fileURLWithPath: moved + "/" + entry.entitlements))
        let refused = cli.expectRefused(cli.replayAlone(moved), naming: "\(moved)/\(entry.entitlements): has sha256 ")
        #expect(refused.error.contains("the archived inputs were changed"))
    }

    @Test("shards of a run with extensions merge: merge plans from run.json's extensions as the run did")
    func shardsMerge() throws {
        let cli = try CLI("extension-shards")
        try Self.notesBuilds(cli)
        let skip = Self.allBut([.upgrade, .extensionFirst, .interleavings])
        var folders: [String] = []
        for shard in ["1/2", "2/2"] {
            let out = cli.directory.file("shard-" + shard.prefix(1))
            let gate = cli.run([
                "gate", "--builds", "notes1,notes2", "--skip-scenarios", skip, "--case-id", "shards", "--shard", shard,
                "--out", out, "--quiet", "--jobs", "1",
            ])
            try #require(gate.code == 0, "\(gate.output)\(gate.error)")
            folders.append(out)
        }
        let merged = cli.directory.file("merged")
        let merge = cli.run(["merge"] + folders + ["--out", merged])
        #expect(merge.code == 0, "\(merge.output)\(merge.error)")
        let report = try GateDocument.read(from: merged + "/gate.json").report
        let cells = report.paths.flatMap { path in path.scenarios.map { "\(path.path)/\($0.scenario)" } }.sorted()
        #expect(
            cells == ["notes1-to-notes2/extension-first", "notes1-to-notes2/interleavings", "notes1-to-notes2/upgrade"],
            "\(cells)")
        #expect(report.verdict == .pass)
    }

    @Test("replay from the builds folder refuses an extension whose executable or entitlements changed since the run")
    func replayChecksExtensionPins() throws {
        var archived = RunInputs.BuildFiles(executable: "aa", entitlements: "bb", manifest: "cc")
        archived.extensions = ["notify": RunInputs.ExtensionFiles(executable: "aa", entitlements: "dd")]
        var now = archived
        now.extensions = ["notify": RunInputs.ExtensionFiles(executable: "aa", entitlements: "ee")]
        let inputs = RunInputs(
            builds: ["x"], runtime: .current, caseID: "c", scenarios: [.upgrade], buildFiles: ["x": archived], runnerVersion: "1")
        do {
            try ReplayRequest.checkPinned(inputs, against: ["x": now], builds: [:], note: { _ in })
            Issue.record("a changed extension entitlements file replayed")
        } catch {
            #expect("\(error)".contains("build x: extension notify's entitlements sha256 is ee"), "\(error)")
        }
        try ReplayRequest.checkPinned(inputs, against: ["x": archived], builds: [:], note: { _ in })
    }

    @Test("preflight launches each declared extension once: one that leaves no status file is named with its build, exit 2")
    func preflightNamesTheExtension() throws {
        let cli = try CLI("extension-preflight")
        try Self.notesBuilds(cli)
        // notes2's extension is an executable that exits without a status file.
        try BuildFixture.addExtension(to: cli.builds + "/notes2", name: "widget", kind: "widget", executable: "bare-exit")
        cli.expectRefused(
            [
                "gate", "--builds", "notes1,notes2", "--scenarios", "upgrade", "--out", cli.directory.file("out"),
                "--quiet",
            ],
            naming: "build notes2: extension widget (widget, \(BuiltProducts.directory.path)/bare-exit, launched locked) "
                + "left no status file")
    }

    /// `--skip-scenarios` words that leave `kept` of the default list.
    private static func allBut(_ kept: [Scenario]) -> String {
        Scenario.gateDefault.filter { !kept.contains($0) }.map(\.rawValue).joined(separator: ",")
    }
}
