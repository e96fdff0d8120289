import Foundation
import PackagePlugin

/// `swift package upgrade-gate [gate options]`: builds the runner and the package's app executables,
/// then runs `upgrade-runner gate` with the package's `builds/` folder and the products just built. A
/// team's CI is then one command (plus the checkout):
///
///     swift package --allow-writing-to-package-directory upgrade-gate --builds app1,app2
///
/// `--builds-dir` and `--products` are the plugin's to set unless given; the artifacts go to
/// `artifacts/gate` in the package (or `--out`).
///
/// Streams: SwiftPM prints whatever a plugin process and its children write, on either stream, to its
/// own standard output; only the plugin's `Diagnostics` reach its standard error. So the runner's
/// standard output (the verdict table) is inherited, and its standard error (progress, diagnostics)
/// is read here and passed on a line at a time as `Diagnostics.progress`, which SwiftPM prints on its
/// standard error as `[UpgradeGate] <line>`.
///
/// Exit code: SwiftPM ends `swift package` with 1 whenever a plugin exits non-zero (and with an error
/// line: its own "Plugin ended with exit code N" unless the plugin reported an error). So a verdict
/// other than PASS is reported here as one error line naming the gate's own code (1 FAIL, 2 bad input,
/// 3 UNKNOWN), in place of SwiftPM's, and `swift package` exits 1.
@main
struct UpgradeGate: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // The runner as the package builds it (a product of this package, or of the dependency that
        // holds it), not as a plugin tool: a tool dependency would build a second copy of it first.
        Diagnostics.progress("building upgrade-runner (debug)")
        let runnerBuild = try packageManager.build(
            .product("upgrade-runner"), parameters: .init(configuration: .debug, logging: .concise, echoLogs: true))
        guard runnerBuild.succeeded,
            let runner = runnerBuild.builtArtifacts.first(where: {
                $0.kind == .executable && $0.url.lastPathComponent == "upgrade-runner"
            })
        else {
            end(code: 3, "the build of upgrade-runner failed; no verdict (UNKNOWN)")
        }
        // The app builds' log is filtered, not echoed: a statically linked app build's link prints
        // glibc's known notes (BuildLog drops and counts them).
        Diagnostics.progress("building the package's executables (the app builds)")
        let build = try packageManager.build(.all(includingTests: false), parameters: .init(configuration: .debug))
        let log = BuildLog(build.logText)
        for line in log.shown where !BuildLog.isProgress(line) || !build.succeeded {
            Diagnostics.progress(line)
        }
        if log.hidden > 0 {
            Diagnostics.progress(
                "\(log.hidden) known static-link notes hidden (glibc's, for a static executable's dlopen, getaddrinfo, user and group lookups and mktemp)"
            )
        }
        guard build.succeeded else {
            if let hint = BuildLog.securityImportHint(log.shown) { Diagnostics.progress(hint) }
            end(code: 3, "the build failed; no verdict (UNKNOWN)")
        }
        guard let executable = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            end(code: 2, "the package has no executable product (an app build)")
        }
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
        let progress = Pipe()
        process.standardError = progress
        try process.run()
        var pending = Data()
        while true {
            let data = progress.fileHandleForReading.availableData
            if data.isEmpty { break }
            pending.append(data)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                Diagnostics.progress(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { Diagnostics.progress(String(decoding: pending, as: UTF8.self)) }
        process.waitUntilExit()
        guard process.terminationReason == .exit else {
            end(code: 3, "upgrade-runner gate ended by signal \(process.terminationStatus); no verdict (UNKNOWN)")
        }
        switch process.terminationStatus {
        case 0: exit(0)
        case 1: end(code: 1, "the gate's verdict is FAIL (upgrade-runner gate exited 1; the table is on standard output)")
        case 2: end(code: 2, "bad input (upgrade-runner gate exited 2)")
        case 3: end(code: 3, "no verdict: UNKNOWN (upgrade-runner gate exited 3)")
        case let code: end(code: code, "upgrade-runner gate exited \(code)")
        }
    }

    /// Reports `message` as the one error line of a failed run and exits with `code`, which SwiftPM
    /// turns into its own exit code 1.
    func end(code: Int32, _ message: String) -> Never {
        Diagnostics.error("upgrade-gate: " + message)
        exit(code)
    }
}
