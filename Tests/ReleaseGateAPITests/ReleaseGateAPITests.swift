import Foundation
import TestSupport
import Testing
// A plain import, as an integrator's package has it: this file compiles only against the public API.
import UpgradeRunner

/// The gate from Swift: ``ReleaseGate/run(_:progress:)`` over the repository's sample builds.
@Suite struct ReleaseGateAPITests {
    static func request(_ out: String, builds: [String] = ["v1", "v2"], caseID: String = "api") -> GateRequest {
        GateRequest(
            builds: builds, scenarios: [.upgrade], caseID: caseID, jobs: 2, out: out,
            buildsFolder: BuiltProducts.repositoryBuilds, productsFolder: BuiltProducts.directory.path)
    }

    @Test("ReleaseGate.run runs the gate, returns its report and writes the artifacts the command line writes")
    func runsTheGate() throws {
        let directory = try TemporaryDirectory("api-gate")
        let out = directory.file("out")
        let lines = Lines()
        let report = try ReleaseGate.run(Self.request(out)) { lines.append($0) }
        #expect(report.verdict == .pass, "\(report.reasons)")
        #expect(report.paths.map(\.path).contains("v1-to-v2"))
        #expect(report.scenarios == [.upgrade])
        // What the integrator reads back: gate.json and run.json, through the public types.
        let document = try GateDocument.read(from: out + "/" + GateArtifacts.gateFile)
        #expect(document.report == report)
        #expect(document.finished)
        let inputs = try RunInputs.read(from: out + "/" + GateArtifacts.runFile)
        #expect(inputs.caseID == "api")
        #expect(inputs.builds == ["v1", "v2"])
        #expect(GateArtifacts.isFinished(out))
        // Progress: the plan first, then one line per cell, no newlines.
        #expect(lines.all.first?.hasPrefix("gate: ") == true, "\(lines.all)")
        #expect(lines.all.contains { $0.contains("PASS") })
        #expect(!lines.all.contains { $0.contains("\n") })
    }

    @Test("ReleaseGate.replay reruns an archived run from Swift and finds it identical; an overlapping out is refused")
    func replays() throws {
        let directory = try TemporaryDirectory("api-replay")
        let out = directory.file("out")
        _ = try ReleaseGate.run(Self.request(out))
        let request = ReplayRequest(
            archive: out, jobs: 2, buildsFolder: BuiltProducts.repositoryBuilds, productsFolder: BuiltProducts.directory.path)
        #expect(request.replayFolder == out + "-replay")
        let notes = Lines()
        let outcome = try ReleaseGate.replay(request, note: { notes.append($0) })
        #expect(outcome.identical, "\(outcome.differences)")
        #expect(outcome.report.verdict == .pass)
        #expect(notes.all.contains { $0.hasPrefix("replay: \(out)-replay") }, "\(notes.all)")
        var inside = request
        inside.out = out + "/paths/again"
        let error = try #require(throws: (any Error).self) { try ReleaseGate.replay(inside) }
        #expect(ExitStatus.report(error).code == ExitStatus.usage)
        #expect("\(error)".contains("overlap"))
    }

    @Test("UpgradeCheck finds the builds and executables of a test process's own package, and a passing check leaves nothing")
    func upgradeCheckPasses() throws {
        let check = UpgradeCheck(old: "v1", new: "v2", scenarios: [.upgrade, .relaunch], caseID: "api-check", jobs: 2)
        #expect(check.buildsFolder == BuiltProducts.repositoryBuilds)
        let result = try check.run()
        #expect(result.passed, "\(result)")
        #expect(result.failures.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: result.folder))
    }

    @Test("UpgradeCheck naming a scenario neither build can take throws, rather than pass without running it")
    func upgradeCheckNamesWhatCannotRun() throws {
        for scenario in [Scenario.secondDevice, .extensionFirst] {
            let check = UpgradeCheck(old: "v1", new: "v2", scenarios: [.upgrade, scenario], caseID: "api-check", jobs: 2)
            let error = try #require(throws: GateError.self) { try check.run() }
            #expect("\(error)".contains("\(scenario.rawValue), which runs only where"), "\(error)")
            #expect(ExitStatus.report(error).code == ExitStatus.usage)
        }
    }

    @Test("UpgradeCheck returns a failing upgrade's findings as values and keeps its artifacts")
    func upgradeCheckFails() throws {
        // v4-transfer is v3 signed by another team with no bridge release: v3's items are out of its reach.
        let result = try UpgradeCheck(old: "v3", new: "v4-transfer", scenarios: [.upgrade], caseID: "api-check", jobs: 2).run()
        defer { try? FileManager.default.removeItem(atPath: result.folder) }
        #expect(result.verdict == .fail)
        let lost = result.failures(.readsOldData)
        #expect(!lost.isEmpty, "\(result)")
        #expect(lost.allSatisfy { $0.path == "v3-to-v4-transfer" && $0.scenario == .upgrade })
        #expect(result.failures(.cleanupExact).isEmpty)
        #expect(FileManager.default.fileExists(atPath: result.folder + "/gate.json"))
        #expect(result.description.contains("v3-to-v4-transfer/upgrade/reads-old-data"))
    }

    @Test(
        "bad input throws before anything runs, with the command line's one-line message and exit code 2",
        arguments: [
            (["v1", "nope"], "api", "nope"),
            (["v2", "v1"], "api", "builds go oldest first"),
            (["v1", "v2"], "-bad", "--case-id"),
        ])
    func badInput(builds: [String], caseID: String, naming: String) throws {
        let directory = try TemporaryDirectory("api-bad")
        let out = directory.file("out")
        let error = try #require(throws: (any Error).self) {
            try ReleaseGate.run(Self.request(out, builds: builds, caseID: caseID))
        }
        let (message, code) = ExitStatus.report(error)
        #expect(code == ExitStatus.usage)
        #expect(message.contains(naming), "\(message)")
        #expect(!message.contains("\n"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

private final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
