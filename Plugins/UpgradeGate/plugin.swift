import Foundation
import PackagePlugin

/// `swift package upgrade-gate [gate options]`: builds the package's app executables and the
/// runner, then runs `upgrade-runner gate` with the package's `builds/` folder and the products just
/// built, and ends with the gate's exit code (0 PASS, 1 FAIL, 2 bad input, 3 UNKNOWN). A team's CI is
/// then one command (plus the checkout):
///
///     swift package --allow-writing-to-package-directory upgrade-gate --builds app1,app2
///
/// `--builds-dir` and `--products` are the plugin's to set unless given; the artifacts go to
/// `artifacts/gate` in the package (or `--out`).
@main
struct UpgradeGate: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let build = try packageManager.build(.all(includingTests: false), parameters: .init(configuration: .debug))
        guard build.succeeded else {
            FileHandle.standardError.write(Data(build.logText.utf8))
            FileHandle.standardError.write(Data("upgrade-gate: the build failed; no verdict (UNKNOWN)\n".utf8))
            exit(3)
        }
        guard let executable = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            FileHandle.standardError.write(Data("upgrade-gate: the package has no executable product (an app build)\n".utf8))
            exit(2)
        }
        let runner = try context.tool(named: "upgrade-runner")
        let package = context.package.directoryURL
        var words = ["gate"] + arguments
        if !arguments.contains(where: { $0 == "--builds-dir" || $0.hasPrefix("--builds-dir=") }) {
            words += ["--builds-dir", package.appendingPathComponent("builds").path]
        }
        if !arguments.contains(where: { $0 == "--products" || $0.hasPrefix("--products=") }) {
            words += ["--products", executable.url.deletingLastPathComponent().path]
        }
        let process = Process()
        process.executableURL = runner.url
        process.arguments = words
        process.currentDirectoryURL = package
        try process.run()
        process.waitUntilExit()
        exit(process.terminationReason == .exit ? process.terminationStatus : 3)
    }
}
