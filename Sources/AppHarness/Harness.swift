import Foundation
import SimPlatform
import SimRuntime
import SimSecurity
import SimSupervision

/// The automation entry point of every app build: reads the launch mode and test case from the
/// arguments, runs the build's hook, and writes the status file.
///
/// Exit codes: 0 when the hook ran and the status file was written (whatever the hook found; a
/// failed migration is a result); 2 when the launch cannot be run as asked (no simulated device, an
/// automation mode without `-UITestCaseID`); 3 when the status file cannot be written. A build that
/// crashes is ended by a signal, which the launcher reports as such.
public enum Harness {
    /// Where the status file goes, relative to the data container.
    public static let statusRelativePath = LaunchStatus.relativePath

    /// The launch argument that bounds the wait for protected data, in seconds (default 1).
    public static let protectedDataTimeoutArgument = "-UITestProtectedDataTimeout"

    private static let environmentLock = NSLock()
    nonisolated(unsafe) private static var environment: AppEnvironment?

    /// The environment of the launch under way in this process (``SimUserDefaults/standard`` reads it).
    public static var currentEnvironment: AppEnvironment? { environmentLock.withLock { environment } }

    /// What one run of a build produced.
    public struct Outcome: Sendable {
        public var status: LaunchStatus
        public var exitCode: Int32
    }

    /// Runs `build` in this process as the launch its environment describes, then exits.
    ///
    /// Called from an app's top-level code (`await Harness.main(MyBuild())`), which runs on the main
    /// actor: being isolated to it too, the call does not hop, and the launch runs on the thread that
    /// called it while it never waits (``LaunchExecutor``): the main thread, when the call is the
    /// top-level code's first wait, as in every sample build.
    @MainActor public static func main(_ build: some AppBuild) async -> Never {
        let platform: Platform
        do {
            platform = try Platform.launched()
        } catch {
            FileHandle.standardError.write(Data("\(build.buildID): \(error)\n".utf8))
            exit(error.exitCode)
        }
        let executor = LaunchExecutor()
        start(build, platform: platform, on: executor)
        executor.drain()
        // The launch waits for another thread or for the main actor.
        if Thread.isMainThread { serveMainQueue() }
        // Off the main thread (the top-level code waited before this call, and libdispatch serves
        // the main queue on a thread of its own), or with a run loop that cannot run: this task
        // yields, and the launch's task exits the process.
        while true { await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in } }
    }

    /// On the main thread, serves the main queue, as an iOS app's run loop does, until the launch's
    /// task exits the process; returns at once if the main run loop cannot run here.
    ///
    /// Not by returning to the async top-level code: its `dispatch_main` ends the main thread by
    /// unwinding it, and in a static executable the unwinder first sorts the frame descriptions of
    /// the whole binary (tens of CPU-ms a launch). The main-actor jobs run nested in this call, on
    /// the main thread; the top-level code that called it never runs again.
    private static func serveMainQueue() {
        while RunLoop.main.run(mode: .default, before: .distantFuture) {}
    }

    /// Starts the launch's task, preferring `executor`; not isolated, so the task is not either.
    private static func start(_ build: some AppBuild, platform: Platform, on executor: LaunchExecutor) {
        Task(executorPreference: executor) {
            let outcome = await run(build, platform: platform)
            exit(outcome.exitCode)
        }
    }

    /// Runs one launch of `build` on `platform` (in-process for tests; `main` for a real launch):
    /// removes a stale status file, runs the mode's hook with the platform's keychain as the one the
    /// `SecItem*` functions use, and writes the new status file.
    public static func run(_ build: some AppBuild, platform: Platform) async -> Outcome {
        let environment = AppEnvironment(platform: platform)
        environmentLock.withLock { Self.environment = environment }
        let statusURL = platform.containers.home.appendingPathComponent(statusRelativePath)
        // Not a store operation of the app: outside the seam, so it is never counted, faulted or a crash point.
        FileSupervision.removeOwnFile(statusURL.path)
        let mode = LaunchMode.selected(by: environment.arguments)
        let caseID = environment.argument(after: LaunchMode.caseIDArgument)
        let launch = HarnessLaunch(
            buildID: build.buildID, mode: mode, caseID: caseID ?? "", environment: environment,
            loading: { installedDeclaration() })
        var exitCode: Int32 = 0
        if caseID == nil && mode != .launch {
            launch.recordError("caseID", .arguments, LaunchMode.caseIDArgument, EINVAL)
            FileHandle.standardError.write(
                Data("\(build.buildID): \(mode.argument ?? "") needs \(LaunchMode.caseIDArgument) <id>\n".utf8))
            exitCode = 2
        } else {
            await Keychain.withCurrent(platform.keychain) { await build.run(launch) }
        }
        let status = launch.currentStatus
        do {
            try writeStatus(status, to: statusURL)
        } catch {
            FileHandle.standardError.write(Data("\(build.buildID): status file \(statusRelativePath): \(error)\n".utf8))
            exitCode = 3
        }
        return Outcome(status: status, exitCode: exitCode)
    }

    /// The `keeps` of the build.json installed beside this executable (the device installs it into
    /// the app's bundle, as Info.plist is), or nil.
    public static func installedDeclaration() -> BuildDeclaration? {
        guard let data = FileManager.default.contents(atPath: installedManifestPath()) else { return nil }
        // JSONDecoder's answer, without JSONDecoder for what the runner and adopters write.
        return BuildManifest.installedDeclaration(data)
    }

    /// The build.json beside the executable, symbolic links resolved: by `realpath` (Foundation's
    /// `URL` path calls were about 1% of a launch on first use), by `URL` when that fails.
    static func installedManifestPath(executable argument: String = CommandLine.arguments.first ?? "") -> String {
        if !argument.isEmpty, let resolved = realpath(argument, nil) {
            defer { free(resolved) }
            var path = Array(String(cString: resolved).utf8)
            if let slash = path.lastIndex(of: UInt8(ascii: "/")) {
                path.removeSubrange((slash + 1)...)
                path.append(contentsOf: BuildManifest.fileName.utf8)
                return String(decoding: path, as: UTF8.self)
            }
        }
        let executable = URL(fileURLWithPath: argument).resolvingSymlinksInPath()
        return executable.deletingLastPathComponent().appendingPathComponent(BuildManifest.fileName).path
    }

    /// Writes the status file atomically, so a killed launch leaves the whole file or none.
    /// The harness's own file, not the app's: outside the seam and the file supervisor.
    static func writeStatus(_ status: LaunchStatus, to url: URL) throws {
        let data = try status.encoded()
        let failure = try FileSupervision.unsupervised { () throws -> Int32 in
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Atomic without a sync, as every store of a simulated device: its apps end by SIGKILL only.
            return FileSupervision.writeOwnFile(data, to: url.path)
        }
        guard failure == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [
                    NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(failure)),
                ])
        }
    }
}

extension AppEnvironment {
    /// How long a launch waits for protected data before it defers (`-UITestProtectedDataTimeout`).
    public var protectedDataTimeout: Double {
        argument(after: Harness.protectedDataTimeoutArgument).flatMap(Double.init) ?? 1
    }
}
