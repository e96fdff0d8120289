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
