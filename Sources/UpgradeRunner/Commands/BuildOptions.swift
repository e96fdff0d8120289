import Foundation
import SimDevice

extension Invocation {
    /// The archived builds and their executables: `--builds-dir` (else `$UPGRADE_RUNNER_BUILDS`,
    /// else `./builds`) and `--products` (else `$UPGRADE_RUNNER_PRODUCTS`, else `./.build/debug`).
    var buildCatalog: BuildCatalog {
        let environment = tool.environment
        return BuildCatalog(
            folder: absolute(option("--builds-dir") ?? environment["UPGRADE_RUNNER_BUILDS"] ?? "builds"),
            productsFolder: absolute(option("--products") ?? environment[BuildCatalog.productsEnvironmentKey] ?? ".build/debug"))
    }
}
