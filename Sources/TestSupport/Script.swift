import Foundation

/// The repository's shell scripts (`scripts/`), run to their end with their output captured.
public enum Script {
    /// The repository's root, found from this source file.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// Runs `scripts/<name>` (by its own `#!` line) with `arguments`, in exactly `environment`.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]) throws -> ProcessRun {
        try ProcessRun.run(repositoryRoot + "/scripts/" + name, arguments, environment: environment)
    }
}
