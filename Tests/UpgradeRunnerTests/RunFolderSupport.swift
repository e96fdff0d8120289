import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// Run folders, builds and refusal checks shared by the tests of replay, merge, builds, scan-secrets and gate.
enum RunFolders {
    /// The package's own `builds/` folder (Ledger v1-v3), whose executables `swift test` builds.
    static let repositoryBuilds = Golden.folder(of: #filePath) + "/../../builds"

    /// Writes a finished run folder at `folder` for `inputs`, with a PASS finding for every cell and a
    /// status file in each cell folder; no app runs.
    @discardableResult
    static func write(_ inputs: RunInputs, at folder: String) throws -> GateReport {
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

    /// Inputs for builds `ids` of `cli`'s builds folder, pinned to their files as they are now.
    static func pinnedInputs(
        _ cli: CLI, builds ids: [String], caseID: String = "case-7", products: String? = nil,
        scenarios: [Scenario] = [.freshInstall, .upgrade]
    ) throws -> RunInputs {
        let catalog = BuildCatalog(folder: cli.builds, productsFolder: products ?? BuiltProducts.directory.path)
        let builds = try GatePipeline.resolve(ids, in: catalog)
        return RunInputs(
            builds: ids, runtime: .current, caseID: caseID, scenarios: scenarios,
            buildFiles: try GatePipeline.pin(builds), runnerVersion: UpgradeRunnerVersion.current)
    }
}

extension CLI {
    /// Runs `words` and checks the refusal contract: exit 2, one line on standard error that starts
    /// with `error: ` and contains `naming`, nothing on standard output, and no file under the test's
    /// folder created, changed or deleted.
    @discardableResult
    func expectRefused(_ words: [String], naming: String, sourceLocation: SourceLocation = #_sourceLocation) -> Result {
        let before = BuildFixture.tree(directory.path)
        let result = run(words)
        #expect(result.code == 2, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("error: "), "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.contains(naming), "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, "\(result.output)", sourceLocation: sourceLocation)
        #expect(BuildFixture.tree(directory.path) == before, "nothing changed", sourceLocation: sourceLocation)
        return result
    }
}

extension GatePipeline {
    /// The secret labels the sample builds (Ledger) declare.
    static let sampleLabels = ["authToken", "deviceKey", "refreshToken", "session"]

    /// The leak scan's secrets for a run of the sample builds.
    static func sampleSecrets(caseID: String) -> [Secret] { secrets(caseID: caseID, labels: sampleLabels) }
}

extension CaseDeclarations {
    /// The sample builds' secrets, declared as keychain items by both builds (for evidence made by hand).
    static let sample: CaseDeclarations = {
        let declaration = BuildDeclaration(
            secrets: GatePipeline.sampleLabels.map {
                DeclaredItem(label: $0, store: .keychain(KeychainItemDeclaration(service: "svc", account: $0)))
            })
        return CaseDeclarations(caseID: "c", old: declaration, new: declaration)
    }()
}
