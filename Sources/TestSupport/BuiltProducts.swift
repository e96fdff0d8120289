import Foundation

/// Finds executables that the package built beside the running test bundle.
public enum BuiltProducts {
    /// The folder holding the package's built products (`.build/debug` or `.build/release`).
    public static var directory: URL {
        if let override = ProcessInfo.processInfo.environment["UPGRADE_RUNNER_PRODUCTS"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        // The test runner is `<products>/<package>PackageTests.xctest`.
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("bare-exit").path) {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }

    /// The repository's `builds/` folder (the sample builds), found from this source file.
    public static let repositoryBuilds = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("builds").path

    /// The path of the executable product `name`.
    public static func executable(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}
