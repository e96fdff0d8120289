import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import GateTestSupport
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

extension RunFolders {
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
