import Foundation
import Testing
import TestSupport
@testable import UpgradeRunner

/// The gate's bad inputs of issue 4 that this CLI owns: `--shard` and an output folder in use.
@Suite struct GateCommandBadInputTests {
    @Test(
        "a malformed or out-of-range --shard is refused naming the flag; nothing is written",
        arguments: [
            ("x", "is not I/N"), ("1/2/3", "is not I/N"), ("1/", "is not I/N"), ("-1/2", "is not I/N"), ("1.5/2", "is not I/N"),
            ("0/3", "must be I/N with 1 <= I <= N"), ("4/3", "must be I/N with 1 <= I <= N"),
            ("1/0", "must be I/N with 1 <= I <= N"),
        ])
    func badShard(text: String, reason: String) throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200")
        let out = cli.directory.file("out")
        cli.expectRefused(["gate", "--builds", "v1,v2", "--shard", text, "--out", out], naming: "--shard: \"\(text)\" \(reason)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("an output folder holding another run's files is refused unless --force; --force replaces them")
    func outputFolderInUse() throws {
        let cli = try CLI()
        let out = cli.directory.file("out")
        try RunFolders.write(SampleGate.inputs(), at: out)
        try "keep me".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
        let words = [
            "gate", "--builds", "v1", "--scenarios", "fresh-install", "--case-id", "forced-1",
            "--builds-dir", RunFolders.repositoryBuilds, "--out", out,
        ]
        cli.expectRefused(words, naming: "\(out): holds another run's files")

        let forced = cli.run(words + ["--force"])
        #expect(forced.code != 2, "\(forced.error)")
        #expect(try RunInputs.read(from: out + "/run.json").caseID == "forced-1")
        #expect(!FileManager.default.fileExists(atPath: out + "/paths/v1-to-v2"), "the earlier run's cell folders are gone")
        #expect(FileManager.default.fileExists(atPath: out + "/notes.txt"), "files that are not a run's stay")
    }

    @Test("an output folder left by an interrupted run is refused unless --force")
    func interruptedRun() throws {
        let cli = try CLI()
        let out = cli.directory.file("out")
        try GateArtifacts.begin(inputs: SampleGate.inputs(), at: out, force: false)
        cli.expectRefused(
            ["gate", "--builds", "v1", "--builds-dir", RunFolders.repositoryBuilds, "--out", out],
            naming: "\(out): holds a run in progress or an interrupted one")
    }
}
