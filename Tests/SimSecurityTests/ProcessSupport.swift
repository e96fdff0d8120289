import Foundation
import TestSupport

/// How a helper process ended.
struct ToolRun {
    var status: Int32
    var signal: Int32?
    var stdout: String
    var stderr: String
}

/// Runs a built tool of this package and waits for it.
func runTool(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: BuiltProducts.executable(name))
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let signaled = process.terminationReason == .uncaughtSignal
    return ToolRun(
        status: signaled ? -1 : process.terminationStatus, signal: signaled ? process.terminationStatus : nil,
        stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
}
