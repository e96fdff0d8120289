import Foundation
import GateExecution
import GateModel
import TestSupport
import UpgradeContract

// What the tests of the gate (GateExecutionTests, UpgradeRunnerTests) share about the package's own
// sample builds: their secret labels, and finished run folders made without an app.

/// Run folders, builds and refusal checks shared by the tests of replay, merge, builds, scan-secrets and gate.
package enum RunFolders {
    /// The package's own `builds/` folder (Ledger v1-v3), whose executables `swift test` builds.
    package static let repositoryBuilds = BuiltProducts.repositoryBuilds

    /// Writes a finished run folder at `folder` for `inputs`, with a PASS finding for every cell and a
    /// status file in each cell folder; no app runs.
    @discardableResult
    package static func write(_ inputs: RunInputs, at folder: String) throws -> GateReport {
        let cells = try inputs.plan().expectedCells(in: inputs.shard)
        let findings = cells.map {
            GateFinding($0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: .pass, detail: "checked")
        }
        try GateArtifacts.begin(inputs: inputs, plan: try inputs.plan(), at: folder, force: false)
        for unit in try inputs.plan().units(in: inputs.shard) {
            let status = folder + "/" + unit.folder + "/status"
            try FileManager.default.createDirectory(atPath: status, withIntermediateDirectories: true)
            try Data("{\n  \"build\" : \"\(unit.path.new)\",\n  \"status\" : 0\n}\n".utf8).write(
                to: URL(fileURLWithPath: status + "/01-\(unit.path.new)-verify.json"))
        }
        let report = GateEngine.evaluate(expected: cells, findings: findings)
        try GateArtifacts.write(report: report, inputs: inputs, to: folder)
        return report
    }
}

extension GatePipeline {
    /// The secret labels the sample builds (Ledger) declare.
    package static let sampleLabels = ["authToken", "deviceKey", "refreshToken", "session"]

    /// The leak scan's secrets for a run of the sample builds.
    package static func sampleSecrets(caseID: String) -> [Secret] { secrets(caseID: caseID, labels: sampleLabels) }
}

extension RuntimePath {
    /// The path a test names by its id (`.id("v1-to-v2")`, `.id("iOS-15.0/v1-to-v2")`).
    package static func id(_ id: String) -> RuntimePath {
        guard let path = RuntimePath(id: id) else { preconditionFailure("\(id) is not a path id") }
        return path
    }
}
