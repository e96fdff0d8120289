import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
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

    @Test("a plan that cannot run is refused before any executable is read (the plan comes before the pins)")
    func planBeforeHashing() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1", executable: "Pipe")
        // The executable is a FIFO: hashing it would open it, and that open is what the writer
        // below waits for. It is executable, so the catalogue takes it as a build.
        let products = cli.directory.file("products")
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        let pipe = products + "/Pipe"
        #expect(mkfifo(pipe, 0o755) == 0)
        let opened = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let fd = open(pipe, O_WRONLY)  // returns once a reader opens the FIFO
            opened.signal()  // before the close, so a reader's EOF comes after the signal
            if fd >= 0 { close(fd) }
        }
        let out = cli.directory.file("out")
        // One build: only its fresh install is a path, and upgrade applies to none.
        cli.expectRefused(
            ["gate", "--builds", "v1", "--scenarios", "upgrade", "--products", products, "--out", out],
            naming: "no scenario of upgrade applies to any path")
        let openedEarly = opened.wait(timeout: .now()) == .success
        #expect(!openedEarly, "the executable was opened before the plan was checked")
        guard !openedEarly else { return }
        // Release the writer: open the read end ourselves.
        let reader = open(pipe, O_RDONLY | O_NONBLOCK)
        opened.wait()
        if reader >= 0 { close(reader) }
    }

    @Test(
        "a bad --routes is refused with one line naming the flag and the route; nothing is written",
        arguments: [
            ("v3>v1", "--routes: \"v3>v1\" lists v3 before v1: a route goes oldest first, by build number"),
            ("v1>v2>v3,v1>v9", "--routes: \"v1>v9\" names unknown build \"v9\""),
            ("v1>v2>v1", "--routes: \"v1>v2>v1\" names build \"v1\" twice"),
            ("v1", "--routes: \"v1\" names fewer than two builds"),
            ("v1>v2,", "--routes: \"\" names fewer than two builds"),
            ("v1>none", "--routes: \"v1>none\" names build \"none\", which \"none\" stands for no build in a path id"),
        ])
    func badRoutes(text: String, message: String) throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1", buildNumber: "100")
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200")
        try BuildFixture.write(in: cli.builds, id: "v3", buildNumber: "300")
        let out = cli.directory.file("out")
        let result = cli.expectRefused(["gate", "--routes", text, "--out", out], naming: message)
        #expect(result.error.hasPrefix("error: " + message), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("--routes with --builds is bad usage naming both")
    func routesWithBuilds() throws {
        let cli = try CLI()
        cli.expectRefused(
            ["gate", "--builds", "v1,v2", "--routes", "v1>v2", "--out", cli.directory.file("out")],
            naming: "--routes: \"v1>v2\" cannot be given with --builds (the builds are those the routes name)")
    }

    @Test("an output folder holding a run and files that are not a run's is refused unless --force; --force replaces the run")
    func outputFolderInUse() throws {
        let cli = try CLI()
        let out = cli.directory.file("out")
        try RunFolders.write(SampleGate.inputs(), at: out)
        try "keep me".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
        let words = [
            "gate", "--builds", "v1", "--scenarios", "fresh-install", "--case-id", "forced-1",
            "--builds-dir", RunFolders.repositoryBuilds, "--out", out,
        ]
        cli.expectRefused(
            words, naming: "\(out): holds files that are not a run's (notes.txt); pass --force to write the run beside them")

        let forced = cli.run(words + ["--force"])
        #expect(forced.code != 2, "\(forced.error)")
        #expect(try RunInputs.read(from: out + "/run.json").caseID == "forced-1")
        #expect(!FileManager.default.fileExists(atPath: out + "/paths/v1-to-v2"), "the earlier run's cell folders are gone")
        #expect(FileManager.default.fileExists(atPath: out + "/notes.txt"), "files that are not a run's stay")
    }

    @Test("an output folder a live run is writing is refused naming its pid, even with --force")
    func liveRun() throws {
        let cli = try CLI()
        let out = cli.directory.file("out")
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        defer { OutputFolder.release(out) }
        let words = ["gate", "--builds", "v1", "--builds-dir", RunFolders.repositoryBuilds, "--out", out]
        cli.expectRefused(words, naming: "\(out): is being written by a live run (pid \(getpid()))")
        cli.expectRefused(words + ["--force"], naming: "\(out): is being written by a live run (pid \(getpid()))")
    }

    @Test("a finished run's output folder, and a dead run's, are replaced without --force")
    func rerun() throws {
        let cli = try CLI()
        let out = cli.directory.file("out")
        let words = [
            "gate", "--builds", "v1", "--scenarios", "fresh-install", "--builds-dir", RunFolders.repositoryBuilds,
            "--out", out,
        ]
        try RunFolders.write(SampleGate.inputs(), at: out)
        let again = cli.run(words + ["--case-id", "again-1"])
        #expect(again.code == 0, "\(again.error)")
        #expect(try RunInputs.read(from: out + "/run.json").caseID == "again-1")
        #expect(!FileManager.default.fileExists(atPath: out + "/paths/v1-to-v2"), "the earlier run's cell folders are gone")
        // A run killed outright leaves its marker but no live lock on it.
        try Data("in progress\npid 999999\n".utf8).write(to: URL(fileURLWithPath: out + "/" + GateArtifacts.inProgressMarker))
        let afterKill = cli.run(words + ["--case-id", "again-2"])
        #expect(afterKill.code == 0, "\(afterKill.error)")
        #expect(GateArtifacts.isFinished(out))
        #expect(try RunInputs.read(from: out + "/run.json").caseID == "again-2")
    }

    @Test("--out that is a file is refused without advice that cannot work")
    func outIsAFile() throws {
        let cli = try CLI()
        let file = cli.directory.file("out.txt")
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for extra in [[], ["--force"]] {
            let result = cli.run(["gate", "--builds", "v1", "--builds-dir", RunFolders.repositoryBuilds, "--out", file] + extra)
            #expect(result.code == 2)
            #expect(result.error == "error: \(file): is a file, not a folder\n")
        }
    }
}
