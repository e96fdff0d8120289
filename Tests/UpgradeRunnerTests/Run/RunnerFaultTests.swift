import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// The runner itself under faults: killed and interrupted at random moments, a full disk under
/// `--out` and under the temporary folder, a read-only `--out`, two runs on one folder. Each case
/// checks that the verdict is never PASS for a run that did not complete, that no seeded secret is
/// left outside a device folder, that a device folder is never readable by others, and that
/// nothing is left behind once the runner starts again.
@Suite("The runner under faults", .serialized)
struct RunnerFaultTests {
    /// A runner process with its own temporary folder, so that what it leaves there is its own.
    struct Runner {
        let directory: TemporaryDirectory
        var tmp: String { directory.file("tmp") }
        var out: String { directory.file("out") }

        init() throws {
            directory = try TemporaryDirectory("faults")
            try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        }

        func process(_ words: [String], tmp: String? = nil, stderr pipe: Pipe? = nil) -> Process {
            FileManager.default.createFile(atPath: directory.file("stderr.txt"), contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltProducts.executable("upgrade-runner"))
            process.arguments = words + ["--builds-dir", sampleBuilds, "--products", BuiltProducts.directory.path]
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = (tmp ?? self.tmp) + "/"
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = pipe ?? FileHandle(forWritingAtPath: directory.file("stderr.txt")) ?? FileHandle.nullDevice
            return process
        }

        /// Runs `words` to the end; the exit code and what it printed on standard error.
        func run(_ words: [String], tmp: String? = nil) throws -> (code: Int32, error: String) {
            let process = process(words, tmp: tmp)
            try process.run()
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOfFile: directory.file("stderr.txt"), encoding: .utf8)) ?? "")
        }

        /// The temporary device folders runners left in `tmp`.
        func deviceFolders(in tmp: String? = nil) -> [String] {
            let folder = tmp ?? self.tmp
            return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter {
                    $0.hasPrefix(TemporaryDevices.prefix) || $0.hasPrefix(OwnedFolder.stagingPrefix + TemporaryDevices.prefix)
                }
                .map { folder + "/" + $0 }
        }
    }

    static let words = ["run", "--from", "v1", "--to", "v2", "--scenario", "upgrade,crash-points,write-failure", "--jobs", "2"]

    /// What every faulted run must show: no PASS it did not earn, no secret in its artifacts, its
    /// device folders readable by the user alone, and none left after the next start.
    func checkAftermath(_ runner: Runner, code: Int32, caseID: String, tmp: String? = nil) throws {
        let gate = runner.out + "/" + GateArtifacts.gateFile
        if code == 0 {
            #expect(GateArtifacts.isFinished(runner.out), "exit 0 only for a finished run")
        }
        if let document = try? GateDocument.read(from: gate), document.report.verdict == .pass {
            // A kill can land after the verdict was written and before the process ended: the PASS is
            // earned when the run finished, whatever the exit code.
            #expect(document.finished, "a PASS only for a finished run (exit \(code))")
        }
        if FileManager.default.fileExists(atPath: runner.out) {
            let scan = try SecretScanner.scan(directory: runner.out, secrets: GatePipeline.sampleSecrets(caseID: caseID))
            #expect(scan.leaks.isEmpty, "\(scan.leaks)")
        }
        for folder in runner.deviceFolders(in: tmp) {
            var info = stat()
            #expect(stat(folder, &info) == 0 && info.st_mode & 0o077 == 0, "\(folder) is readable by others")
        }
        // The next start of any runner, even one that refuses its input, removes what a killed one left.
        _ = try runner.run(["builds", "--no-such-option"], tmp: tmp)
        #expect(runner.deviceFolders(in: tmp).isEmpty, "\(runner.deviceFolders(in: tmp).map(Self.describe))")
    }

    func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// A folder left behind, with what the sweep decided by: its marker's first line and its entries.
    static func describe(_ folder: String) -> String {
        let marker = (try? String(contentsOfFile: folder + "/" + OwnedFolder.markerName, encoding: .utf8))
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return "\(folder) (marker: \(marker.map { $0.split(separator: "\n").first.map(String.init) ?? "empty" } ?? "none"); "
            + "entries: \(entries.sorted().prefix(10).joined(separator: ", ")))"
    }

    @Test("killed (SIGKILL) or interrupted (SIGTERM) at 20 random moments: never a PASS it did not earn, nothing left")
    func randomKills() throws {
        // The moments are events: right after the plan line, or after a random number of finished
        // cells (the other worker is then inside its cell), read from the runner's progress.
        var random = SplitMix64(seed: 20_261_201)
        let runner = try Runner()
        var interruptedCleanly = 0
        for round in 0..<20 {
            let caseID = "kill-\(round)"
            let pipe = Pipe()
            let process = runner.process(Self.words + ["--out", runner.out, "--case-id", caseID], stderr: pipe)
            try process.run()
            let progress = LineReader(pipe)
            let cells = Int(random.next() % 4)
            var seen = -1
            _ = progress.wait { line in
                if line.hasPrefix("gate: ") || line.hasPrefix("[") { seen += 1 }
                return seen >= cells
            }
            let signalNumber = round % 2 == 0 ? SIGKILL : SIGTERM
            kill(process.processIdentifier, signalNumber)
            let error = progress.readToEnd().joined(separator: "\n")
            process.waitUntilExit()
            let code: Int32 = process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
            if signalNumber == SIGTERM && process.terminationReason == .exit {
                #expect(code == 3 || code == 0, "SIGTERM ends the run with 3 (or it had finished): \(code) \(error)")
                if code == 3 {
                    interruptedCleanly += 1
                    // (A tombstone file, left only while a cell was still at work at the exit, goes at the next start.)
                    let folders = runner.deviceFolders().filter(isFolder)
                    #expect(folders.isEmpty, "an interrupted run removes its devices itself")
                    #expect(!error.contains("FAIL"), "\(error)")
                }
            }
            try checkAftermath(runner, code: code, caseID: caseID)
        }
        #expect(interruptedCleanly > 0, "at least one SIGTERM landed mid-run")
    }

    @Test("an interrupted cell is UNKNOWN everywhere: no FAIL on standard error, no failed attempt")
    func interruptedIsUnknown() throws {
        let runner = try Runner()
        let pipe = Pipe()
        let process = runner.process(Self.words + ["--out", runner.out, "--case-id", "term"], stderr: pipe)
        try process.run()
        // The first finished cell: the other worker is inside an exploration cell (they run first).
        let progress = LineReader(pipe)
        #expect(progress.wait { $0.hasPrefix("[1/") })
        kill(process.processIdentifier, SIGTERM)
        let error = progress.readToEnd().joined(separator: "\n")
        process.waitUntilExit()
        #expect(process.terminationStatus == 3)
        #expect(!error.contains("FAIL"), "\(error)")
        #expect(error.contains("interrupted by signal 15"))
        for case let file as String in FileManager.default.enumerator(atPath: runner.out) ?? .init()
        where file.hasSuffix("attempts.json") {
            let text = try String(contentsOfFile: runner.out + "/" + file, encoding: .utf8)
            #expect(!text.contains("\"failed\""), "\(file)")
        }
        try checkAftermath(runner, code: 3, caseID: "term")
    }

    @Test(
        "a full disk under --out: one line naming the file and the cause, exit 3, nothing left",
        .enabled(if: Tmpfs.available))
    func fullDiskUnderOut() throws {
        let runner = try Runner()
        let mount = try Tmpfs(at: runner.directory.file("small"), size: "48k")
        defer { mount.unmount() }
        let out = mount.path + "/out"
        let result = try runner.run(Self.words + ["--out", out, "--case-id", "full"])
        #expect(result.code == 3, "\(result.error)")
        let errors = result.error.split(separator: "\n").filter { $0.hasPrefix("error: ") }
        #expect(errors.count == 1, "\(result.error)")
        #expect(errors.first?.hasPrefix("error: no space left on device ") == true, "\(result.error)")
        #expect(errors.first?.contains(out) == true)
        #expect(!result.error.contains("NSCocoaErrorDomain"))
        #expect(runner.deviceFolders().isEmpty)
    }

    @Test(
        "a full disk under the temporary folder: the run is UNKNOWN (exit 3), nothing left",
        .enabled(if: Tmpfs.available))
    func fullDiskUnderTMPDIR() throws {
        let runner = try Runner()
        let mount = try Tmpfs(at: runner.directory.file("small-tmp"), size: "256k")
        defer { mount.unmount() }
        let result = try runner.run(Self.words + ["--out", runner.out, "--case-id", "fulltmp"], tmp: mount.path)
        #expect(result.code == 3, "\(result.error)")
        #expect(!result.error.contains("NSCocoaErrorDomain"))
        try checkAftermath(runner, code: result.code, caseID: "fulltmp", tmp: mount.path)
    }

    @Test("a read-only --out: one line naming the folder, exit 3", .enabled(if: Tmpfs.available))
    func readOnlyOut() throws {
        let runner = try Runner()
        let mount = try Tmpfs(at: runner.directory.file("ro"), size: "64k", readOnly: true)
        defer { mount.unmount() }
        let result = try runner.run(Self.words + ["--out", mount.path + "/out", "--case-id", "ro"])
        #expect(result.code == 3)
        #expect(result.error == "error: read-only file system creating the folder \(mount.path)/out\n", "\(result.error)")
        #expect(runner.deviceFolders().isEmpty)
    }

    @Test("two runs on one --out: the second is refused naming the first's pid; the first finishes")
    func twoRunsAtOnce() throws {
        let runner = try Runner()
        let pipe = Pipe()
        let first = runner.process(
            ["run", "--from", "v1", "--to", "v2", "--scenario", "upgrade,crash-points", "--out", runner.out, "--case-id", "one"],
            stderr: pipe)
        try first.run()
        // The plan line comes once the run holds its folder (its lock taken, its pid written).
        let progress = LineReader(pipe)
        #expect(progress.wait { $0.hasPrefix("gate: ") })
        let cli = try CLI()
        let second = cli.run(
            ["run", "--from", "v1", "--to", "v2", "--out", runner.out, "--case-id", "two", "--builds-dir", sampleBuilds])
        _ = progress.readToEnd()
        first.waitUntilExit()
        #expect(second.code == 2)
        #expect(second.error == "error: \(runner.out): is being written by a live run (pid \(first.processIdentifier))\n")
        #expect(first.terminationStatus == 0)
        #expect(try RunInputs.read(from: runner.out + "/run.json").caseID == "one")
        try checkAftermath(runner, code: first.terminationStatus, caseID: "one")
    }

    /// Whether this machine lets a process start another in a new PID namespace (root, util-linux's
    /// `unshare`): where it does not, the test that needs one is disabled, not passed.
    static let newPIDNamespace: Bool = Tmpfs.command(["unshare", "--pid", "--fork", "true"]) == 0

    @Test(
        "a runner in another PID namespace sharing the temporary folder never takes a live gate's devices (#37)",
        .enabled(if: newPIDNamespace))
    func otherPIDNamespace() throws {
        let runner = try Runner()
        let pipe = Pipe()
        let gate = runner.process(
            // The gate of two builds, every scenario: seconds of work after the first cell, against the
            // sweeper's one start of a few milliseconds.
            ["gate", "--builds", "v1,v2", "--jobs", "2", "--out", runner.out, "--case-id", "namespaces"],
            stderr: pipe)
        try gate.run()
        // A finished cell: the devices folder is in use, the other worker inside a cell.
        let progress = LineReader(pipe)
        #expect(progress.wait { $0.hasPrefix("[1/") })
        let live = runner.deviceFolders()
        #expect(!live.isEmpty)
        // Another runner's start in a PID namespace of its own, where the gate's pid means nothing
        // (it names no process there, or another one), sweeping the same TMPDIR.
        let sweeper = runner.process(["builds", "--no-such-option"])
        sweeper.arguments = ["--pid", "--fork", sweeper.executableURL!.path] + (sweeper.arguments ?? [])
        sweeper.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        try sweeper.run()
        sweeper.waitUntilExit()
        #expect(sweeper.terminationStatus == 2, "the other runner refused its own bad usage")
        #expect(gate.isRunning, "the sweep ran beside the live gate")
        #expect(live.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "the live gate's devices stay")
        let error = progress.readToEnd().joined(separator: "\n")
        gate.waitUntilExit()
        #expect(gate.terminationStatus == 0, "\(error)")
        #expect(try GateDocument.read(from: runner.out + "/" + GateArtifacts.gateFile).report.verdict == .pass)
        try checkAftermath(runner, code: gate.terminationStatus, caseID: "namespaces")
    }
}

/// A small tmpfs mounted for a test (root only; where mounting is not allowed the tests that need
/// one are disabled, not passed).
struct Tmpfs {
    let path: String

    init(at path: String, size: String, readOnly: Bool = false) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let options = "size=\(size)" + (readOnly ? ",ro" : "")
        guard Self.mount(options, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func unmount() { _ = Self.command(["umount", path]) }

    static let available: Bool = {
        guard getuid() == 0, let probe = try? TemporaryDirectory("tmpfs-probe") else { return false }
        guard mount("size=16k", probe.path) == 0 else { return false }
        _ = command(["umount", probe.path])
        return true
    }()

    private static func mount(_ options: String, _ path: String) -> Int32 {
        command(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path])
    }

    static func command(_ words: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = words
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
