import Foundation

/// How a process a test ran ended, and what it wrote.
public struct ProcessRun: Sendable {
    /// Its exit status; -1 when a signal ended it.
    public var status: Int32
    /// The signal that ended it, if one did.
    public var signal: Int32?
    public var stdout: String
    public var stderr: String
    /// Its process id (a runner names its temporary folders by it).
    public var pid: Int32 = 0

    /// Runs `path` with `arguments` in exactly `environment`, reads both outputs to their end and
    /// waits for it.
    public static func run(_ path: String, _ arguments: [String], environment: [String: String]) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let signaled = process.terminationReason == .uncaughtSignal
        return ProcessRun(
            status: signaled ? -1 : process.terminationStatus, signal: signaled ? process.terminationStatus : nil,
            stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self),
            pid: process.processIdentifier)
    }
}
