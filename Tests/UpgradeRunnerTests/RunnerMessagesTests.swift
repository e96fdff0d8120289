import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// What a user reads when something goes wrong, and the progress of a long run: one line that
/// names the thing, never a Foundation error dump.
@Suite("Messages and progress")
struct RunnerMessagesTests {
    @Test(
        "--case-id: a control character is escaped in a one-line error, the length is limited to 64",
        arguments: [
            ("ab\ncd", "--case-id: \"ab\\ncd\" must be ASCII letters"),
            (String(repeating: "a", count: 65), "is longer than 64 characters"),
            (String(repeating: "a", count: 10_000), "(10000 characters) is longer than 64 characters"),
        ])
    func caseID(text: String, naming: String) throws {
        let cli = try CLI()
        let result = cli.run(["gate", "--case-id", text, "--builds-dir", sampleBuilds])
        #expect(result.code == 2)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.contains(naming), "\(result.error)")
        #expect(result.error.count < 300)
        #expect(try CaseIDOption.valid(String(repeating: "a", count: 64)).count == 64)
    }

    @Test("a build.json that is an array names the file and what it should be")
    func manifestNotAnObject() throws {
        let cli = try CLI()
        try FileManager.default.createDirectory(atPath: cli.builds + "/arr", withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: URL(fileURLWithPath: cli.builds + "/arr/build.json"))
        let result = cli.run(["builds"])
        #expect(result.code == 2)
        #expect(result.error == "error: \(cli.builds)/arr/build.json: the file is not a JSON object at the top level\n")
    }

    @Test("a --fault-plan that is not JSON, or has a field of the wrong type, is one line naming the field")
    func badFaultPlan() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let plan = cli.directory.file("plan.json")
        try Data("{\"x\":".utf8).write(to: URL(fileURLWithPath: plan))
        let notJSON = cli.run(["launch", udid, "com.example.tiny", "--fault-plan", plan])
        #expect(notJSON.error == "error: --fault-plan: \"\(plan)\" is not a fault plan: not valid JSON\n")
        try Data("{\"crashAfterMutation\": \"three\"}".utf8).write(to: URL(fileURLWithPath: plan))
        let wrongType = cli.run(["launch", udid, "com.example.tiny", "--fault-plan", plan])
        #expect(wrongType.code == 2)
        #expect(!wrongType.error.contains("DecodingError"), "\(wrongType.error)")
        #expect(wrongType.error.split(separator: "\n").count == 1, "\(wrongType.error)")
    }

    @Test("a garbage keychain database is one line that names the file once")
    func garbageKeychain() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let database = cli.root + "/\(udid)/data/Library/Keychains/keychain-2-debug.db"
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: database))
        let result = cli.run(["keychain", udid, "dump"])
        #expect(result.code == 2)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.components(separatedBy: database).count == 2, "the path once: \(result.error)")
    }

    @Test("a launch killed by a signal reads as a sentence")
    func killedLaunchText() {
        var evidence = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: .upgrade), runtime: .current, caseID: "c")
        evidence.launches = [
            LaunchRecord(
                index: 2, build: "v2", mode: .launch, caseID: "c", runtime: .current, termination: .signaled(SIGILL),
                endedAtCrashPoint: false,
                status: nil, duration: 0, mutations: [], deviceDirectory: "")
        ]
        let message = evidence.launchProblems(.readsOldData)?.first?.message
        #expect(message == "02-v2-launch: the launch was killed by signal 4 (SIGILL)")
    }

    @Test("an I/O failure names the cause in strerror's words and the file, with exit code 3")
    func ioFailure() {
        let full = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.fileWriteOutOfSpace.rawValue,
            userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        let error = GateError.io(full, "writing", "/out/gate.json")
        #expect(error.description == "no space left on device writing /out/gate.json")
        #expect(ExitStatus.report(error).code == 3)
        let bare = NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteVolumeReadOnly.rawValue)
        #expect(FileFailure.cause(bare) == "read-only file system")
        #expect(ExitStatus.report(DeviceError.spawnFailed("/x", errno: EACCES)).code == 3)
        #expect(ExitStatus.report(DeviceError.unknownDevice("x", root: "/r")).code == 2)
    }

    @Test("the verdict table on a terminal has no HTML entities; summary.md keeps them")
    func terminalTable() throws {
        var inputs = SampleGate.inputs()
        inputs.caseID = "case-7"
        let finding = GateFinding(
            .readsOldData, path: .id("v1-to-v2"), scenario: .upgrade, verdict: .fail,
            detail: "the launch left <devices>/x behind")
        let cells = try inputs.plan().expectedCells(in: nil)
        let report = GateEngine.evaluate(expected: cells, findings: [finding])
        #expect(GateArtifacts.summaryMarkdown(report: report, inputs: inputs, out: "artifacts/gate").contains("&lt;devices&gt;"))
        let text = GateArtifacts.summaryText(report: report, inputs: inputs, out: "artifacts/gate")
        #expect(text.contains("<devices>/x") && !text.contains("&lt;"))
        #expect(text.contains("upgrade-runner run --from v1 --to v2 --scenario upgrade --case-id case-7 --runtime \"iOS 17.5\""))
    }

    @Test("progress: a plan line, a running count per cell, a closing line; a live line on a terminal; nothing when quiet")
    func progress() {
        /// What a reporter of `style` writes for a run of two cells, one passing and one failing.
        func drive(_ style: GateProgress.Style) -> [String] {
            let lines = Lines()
            let progress = GateProgress(style: style) { lines.append($0) }
            progress.start(cells: 2, paths: 1, scenarios: 2, inputs: SampleGate.inputs(), jobs: 2)
            progress.finished("v1-to-v2/upgrade", .pass, seconds: 0.25)
            progress.finished("v1-to-v2/relaunch", .fail, seconds: 0.5)
            progress.end()
            return lines.parts
        }
        let text = drive(.lines).joined()
        #expect(text.hasPrefix("gate: 2 cells (1 path, 2 scenarios) of builds v1, v2, 2 jobs, case id case-7, iOS 17.5\n"))
        #expect(text.contains("[1/2 ") && text.contains("] PASS v1-to-v2/upgrade (0.25s)\n"))
        #expect(text.contains("[2/2 ") && text.contains("] FAIL v1-to-v2/relaunch (0.50s)\n"))
        #expect(text.contains("gate: 2 of 2 cells finished in "))
        #expect(!text.contains("\r"))

        let parts = drive(.live)
        #expect(parts[1].hasPrefix("\r\u{1B}[K[1/2 ") && !parts[1].hasSuffix("\n"), "a passing cell only moves the live line")
        #expect(parts[2].hasPrefix("\r\u{1B}[K[2/2 ") && parts[2].hasSuffix("\n"), "a failing cell stays on screen")
        #expect(drive(.quiet).isEmpty)
    }

    @Test("progress counts the baseline cells apart from the planned ones, so no count runs past its total")
    func progressBaselines() {
        let lines = Lines()
        let progress = GateProgress(style: .lines) { lines.append($0) }
        progress.start(cells: 2, paths: 1, scenarios: 2, inputs: SampleGate.inputs(), jobs: 2)
        progress.finished("v1-to-v2/upgrade", .fail, seconds: 0.25)
        progress.finished("v1-to-v2/relaunch", .fail, seconds: 0.5)
        progress.baselines(2)
        progress.finished("v1-to-v1/upgrade (the old build in v2's place)", .fail, seconds: 0.25, baseline: true)
        progress.finished("v1-to-v1/relaunch (the old build in v2's place)", .pass, seconds: 0.25, baseline: true)
        progress.end()
        let text = lines.parts.joined()
        #expect(text.contains("[baseline 1/2 ") && text.contains("[baseline 2/2 ") && !text.contains("[3/2"))
        #expect(text.contains("gate: 2 of 2 cells finished, and 2 of 2 baseline cells in "), "\(text)")
    }

    @Test("gate --quiet prints the verdict table and no progress")
    func quietGate() throws {
        let cli = try CLI()
        let result = cli.run([
            "gate", "--builds", "v1", "--scenarios", "fresh-install", "--builds-dir", sampleBuilds, "--out",
            cli.directory.file("out"), "--quiet",
        ])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.hasPrefix("## Upgrade gate: ✅ PASS"))
    }
}

/// Collects what a progress reporter writes.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ part: String) { lock.withLock { stored.append(part) } }
    var parts: [String] { lock.withLock { stored } }
    var text: String { parts.joined() }
}
