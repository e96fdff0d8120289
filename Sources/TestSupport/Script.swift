import Foundation

/// One of the repository's shell scripts (`scripts/`), run to its end with its output captured.
public enum Script {
    /// The repository's root, found from this source file.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// What a script run gave back.
    public struct Result: Sendable {
        public var code: Int32
        public var output: String
        public var error: String
    }

    /// Runs `scripts/<name>` (by its own `#!` line) with `arguments`, in exactly `environment`, and
    /// returns its exit code and what it wrote.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: repositoryRoot + "/scripts/" + name)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            code: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            error: String(decoding: err, as: UTF8.self))
    }
}
