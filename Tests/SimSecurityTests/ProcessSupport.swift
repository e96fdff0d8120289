import Foundation
import TestSupport

/// How a helper process ended.
typealias ToolRun = ProcessRun

/// Runs a built tool of this package and waits for it.
func runTool(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
    try ProcessRun.run(
        BuiltProducts.executable(name), arguments,
        environment: ProcessInfo.processInfo.environment.merging(environment) { _, new in new })
}
