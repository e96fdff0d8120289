import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimDevice
import TestSupport
import Testing
@testable import UpgradeRunner

/// `gate --archive-inputs` and `replay` from the artifacts alone: a real Ledger gate, moved to an
/// empty folder and replayed with no builds folder and no products; then the inputs tampered with,
/// truncated or from a newer runner, each refused naming the file before anything runs.
@Suite struct ArchivedInputsTests {
    /// Runs an archived gate of v1 and v2 and moves its artifacts to `<test>/elsewhere/run`.
    private func movedGate(_ cli: CLI) throws -> String {
        let first = try cli.archivedGate(at: cli.directory.file("first"), caseID: "archive-1")
        let moved = cli.directory.file("elsewhere/run")
        try FileManager.default.createDirectory(atPath: cli.directory.file("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: first, toPath: moved)
        return moved
    }

    private func replayAlone(_ cli: CLI, _ folder: String) -> [String] { cli.replayAlone(folder) }

    @Test("an archived gate holds each build's files once, run.json points at them, and the leak scan covered them")
    func layout() throws {
        let cli = try CLI()
        let folder = try movedGate(cli)
        let inputs = try RunInputs.read(from: folder + "/run.json")
        let archive = try #require(inputs.archivedInputs)
        #expect(archive.builds.keys.sorted() == ["v1", "v2"])
        for (id, entry) in archive.builds {
            #expect(entry.executable == "inputs/executables/" + inputs.buildFiles[id]!.executable)
            #expect(entry.manifest == "inputs/builds/\(id)/build.json")
            #expect(FileManager.default.isExecutableFile(atPath: folder + "/" + entry.executable))
            let original = try Data(contentsOf: URL(fileURLWithPath: RunFolders.repositoryBuilds + "/\(id)/build.json"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + entry.manifest)) == original)
        }
        let timings = try String(contentsOfFile: folder + "/timings.json", encoding: .utf8)
        let scanned = try #require(
            (try JSONSerialization.jsonObject(with: Data(timings.utf8)) as? [String: Any])?["leakScan"] as? [String: Int])
        // The archived executables are vouched for by the sha256 they are named by (built before the
        // case's secrets existed), the rest of inputs/ is searched.
        #expect(scanned["filesByDigest"] == Set(archive.builds.values.map(\.executable)).count, "\(scanned)")
        #expect(scanned["files"]! > archive.builds.count * 2, "the scan read the manifests and entitlements of inputs/")
    }

    @Test("builds that share an executable share one archived file, named by its sha256")
    func sharedExecutable() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200")
        let inputs = try RunFolders.pinnedInputs(cli, builds: ["v1", "v2"])
        let builds = try GatePipeline.resolve(
            ["v1", "v2"], in: BuildCatalog(folder: cli.builds, productsFolder: BuiltProducts.directory.path))
        let archive = try ArchivedInputs.plan(for: builds, pins: inputs.buildFiles)
        let out = cli.directory.file("out")
        try archive.write(builds, to: out)
        let stored = try FileManager.default.contentsOfDirectory(atPath: out + "/inputs/executables")
        #expect(stored == [inputs.buildFiles["v1"]!.executable])
        #expect(archive.builds["v1"]!.executable == archive.builds["v2"]!.executable)
        #expect(try archive.catalog(in: out, pins: inputs.buildFiles, runFile: "run.json").executables.count == 2)
    }

    @Test("moved to an empty folder with no builds and no products, an archived gate replays identically")
    func replayAnywhere() throws {
        let cli = try CLI()
        let folder = try movedGate(cli)
        let replay = cli.run(replayAlone(cli, folder))
        #expect(replay.code == 0, "\(replay.output)\(replay.error)")
        #expect(replay.output == "identical\n")
        // Without inputs/, replay needs the builds as before.
        try FileManager.default.removeItem(atPath: folder + "/inputs")
        cli.expectRefused(replayAlone(cli, folder), naming: "unknown build \"v1\"")
    }

    @Test("a changed archived executable is refused naming the file, before anything runs")
    func tamperedExecutable() throws {
        let cli = try CLI()
        let folder = try movedGate(cli)
        let inputs = try RunInputs.read(from: folder + "/run.json")
        let executable = folder + "/" + inputs.archivedInputs!.builds["v2"]!.executable
        try (Data(contentsOf: URL(fileURLWithPath: executable)) + Data([0])).write(to: URL(fileURLWithPath: executable))
        let result = cli.expectRefused(replayAlone(cli, folder), naming: "\(executable): has sha256 ")
        #expect(result.error.contains("the archived inputs were changed"))
        #expect(!FileManager.default.fileExists(atPath: folder + "-replay"))
    }

    @Test(
        "a truncated inputs folder (a file missing) or an edited manifest is refused naming the file",
        arguments: ["inputs/builds/v1/build.json", "inputs/builds/v2/Ledger.entitlements"])
    func truncatedInputs(file: String) throws {
        let cli = try CLI()
        let folder = try movedGate(cli)
        try FileManager.default.removeItem(atPath: folder + "/" + file)
        cli.expectRefused(replayAlone(cli, folder), naming: "\(folder)/\(file): is missing from the archived inputs")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/" + file))
        cli.expectRefused(replayAlone(cli, folder), naming: "\(folder)/\(file): has sha256 ")
    }

    @Test("inputs from a newer runner (a newer archivedInputs.formatVersion) are refused naming run.json")
    func newerInputs() throws {
        let cli = try CLI()
        let folder = try movedGate(cli)
        var inputs = try RunInputs.read(from: folder + "/run.json")
        inputs.archivedInputs!.formatVersion = ArchivedInputs.currentFormatVersion + 1
        let report = try GateDocument.read(from: folder + "/gate.json").report
        try GateArtifacts.write(report: report, inputs: inputs, to: folder)
        cli.expectRefused(
            replayAlone(cli, folder), naming: "\(folder)/run.json: field \"archivedInputs.formatVersion\" is 2, newer")
    }

    @Test("without --archive-inputs, run.json has no archivedInputs field and no inputs/ is written")
    func notArchived() throws {
        let cli = try CLI()
        let out = cli.directory.file("plain")
        let gate = cli.run(
            ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", out, "--builds-dir", RunFolders.repositoryBuilds])
        try #require(gate.code == 0, "\(gate.error)")
        #expect(!(try String(contentsOfFile: out + "/run.json", encoding: .utf8)).contains("archivedInputs"))
        #expect(!FileManager.default.fileExists(atPath: out + "/inputs"))
    }
}

extension CLI {
    /// Runs an archived gate (`--archive-inputs`) of Ledger v1 and v2, scenario upgrade, into `out`.
    func archivedGate(at out: String, caseID: String) throws -> String {
        let gate = run(
            [
                "gate", "--builds", "v1,v2", "--scenarios", "upgrade", "--case-id", caseID, "--archive-inputs", "--out", out,
                "--builds-dir", RunFolders.repositoryBuilds, "--quiet",
            ])
        try #require(gate.code == 0, "\(gate.output)\(gate.error)")
        return out
    }

    /// The words that replay `folder` (or a bundle) with the products and the builds folder out of reach.
    func replayAlone(_ folder: String) -> [String] {
        ["replay", folder, "--builds-dir", directory.file("no-builds"), "--products", directory.file("no-products")]
    }
}
