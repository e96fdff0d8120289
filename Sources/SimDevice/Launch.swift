import Foundation
import SimPlatform
import SimRuntime

/// How to launch an app.
public struct LaunchOptions: Sendable {
    /// The launch arguments (argv after the executable); `-Key value` pairs also reach the app's
    /// preferences as the argument domain.
    public var arguments: [String]
    public var faultPlan: FaultPlan
    /// Seconds before the app is killed with SIGKILL.
    public var timeout: Double
    /// Where stdout and stderr go; the default is `<device>/logs/<bundle id>.log`.
    public var logPath: String?
    /// Where the seam logs store operations; the default is `<device>/logs/<bundle id>.mutations.jsonl`.
    public var mutationLogPath: String?
    /// Extra environment variables for the app, as `SIMCTL_CHILD_` variables give them with simctl.
    public var environment: [String: String]
    /// Whether the process, and every process it starts, may write only beneath the device's folder
    /// and to its two logs (``WriteConfinement``): true for every launch, so that neither an app nor
    /// a child it leaves behind writes anywhere else (refused with EACCES, as the sandbox would).
    /// False only for a test's own executables. Where the kernel has no Landlock, launches go
    /// unconfined, as before.
    public var confinedToDevice = true
    /// The name (build.json's) of the app's extension to launch instead of the app: its own process,
    /// bundle id, entitlements and data container, the app's bundle id still naming the app. Nil: the app.
    public var extensionName: String?
    /// Whether the app is launched in the background (a background fetch, a push): it can show no
    /// Face ID, Touch ID or passcode prompt, so items whose access control needs one answer
    /// errSecInteractionNotAllowed (docs/simsecurity.md, row 51).
    public var background = false
    /// The runner's hold on each of the launch's store operations (``StepChannel``, interleavings):
    /// the process waits for a grant before each one. Nil: it runs freely, as every launch did.
    public var steps: StepChannel?

    public init(
        arguments: [String] = [], faultPlan: FaultPlan = .none, timeout: Double = 30,
        logPath: String? = nil, mutationLogPath: String? = nil, environment: [String: String] = [:]
    ) {
        self.arguments = arguments
        self.faultPlan = faultPlan
        self.timeout = timeout
        self.logPath = logPath
        self.mutationLogPath = mutationLogPath
        self.environment = environment
    }
}

/// How a launch went.
public struct LaunchResult: Sendable, Equatable {
    public var bundleID: String
    public var buildID: String
    public var pid: Int32
    public var termination: Termination
    /// Wall time from spawn to reaping, in seconds (for timing files, never for status files).
    public var duration: Double
    public var logPath: String
    public var mutationLogPath: String
    /// The launch's store operations as the seam logged them (names and statuses, never values),
    /// read once from `mutationLogPath` after the app ended.
    public var mutations: [SeamEntry]
    /// The planned crash point, if the fault plan had one.
    public var crashPoint: Int?
    /// Whether the app was killed right after the planned crash point's mutation: SIGKILL, and the
    /// mutation log's last entry is that mutation.
    public var endedAtCrashPoint: Bool

    /// The bytes of the status file the app wrote in this launch (``LaunchStatus/relativePath`` in
    /// its data container), or nil when it wrote none. The launch returns it so that no caller reads
    /// the app's container for it; it stays in the container until the next launch of the app
    /// removes it (a status file there is always the last launch's).
    public var statusFile: Data?

    /// Whether the app exited with status 0.
    public var exitedCleanly: Bool { termination == .exited(0) }
}

extension DeviceSession {
    /// Launches an installed app as a new process of its installed executable and waits for it.
    ///
    /// The app learns the device, its identity (from the install record, never its own claim), its
    /// containers, the lock-state file, the clock, its arguments and the fault plan from the launch
    /// context in its environment. As on the simulator, `HOME` and `CFFIXED_USER_HOME` are the data
    /// container and `TMPDIR` its `tmp/`; the XDG folders steer Foundation's Application Support,
    /// Caches and preferences into the container's `Library`.
    /// - Throws: when the device is shut down, the app is not installed, or it cannot be started.
    ///   How the app ended (a crash, a timeout) is a result, not an error.
    public func launch(_ bundleID: String, _ options: LaunchOptions = LaunchOptions()) throws(DeviceError) -> LaunchResult {
        // The app changes the containers' files: what was read of them goes, now and when it has ended.
        contentsChanged()
        defer { contentsChanged() }
        let prepared = try prepareLaunch(bundleID, options)
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome = try Spawner.run(
            path: prepared.executablePath, arguments: prepared.arguments, environment: prepared.environment,
            logPath: prepared.logPath, timeout: options.timeout, inheritedLock: deviceLock.descriptor,
            confinedTo: prepared.confinedTo)
        let duration = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return finishLaunch(prepared, options, outcome: outcome, duration: duration)
    }

    /// Launches several installed apps (or extensions) at once, each as ``launch(_:_:)`` would, and
    /// waits for all of them. `ended` is called (on a thread of its own) with a launch's index as
    /// soon as its process has been reaped; `whileRunning` runs on the calling thread meanwhile (the
    /// interleavings' scheduler, which grants the processes' steps through their ``StepChannel``s).
    /// - Throws: when a launch cannot be prepared or started; how each app ended is its result.
    public func launchTogether(
        _ launches: [(bundleID: String, options: LaunchOptions)], ended: @escaping @Sendable (Int) -> Void,
        whileRunning: () -> Void
    ) throws(DeviceError) -> [LaunchResult] {
        contentsChanged()
        defer { contentsChanged() }
        var prepared: [PreparedLaunch] = []
        for launch in launches { prepared.append(try prepareLaunch(launch.bundleID, launch.options)) }
        let outcomes = LaunchOutcomes(count: launches.count)
        let group = DispatchGroup()
        let lock = deviceLock.descriptor
        for (index, launch) in prepared.enumerated() {
            let timeout = launches[index].options.timeout
            group.enter()
            Thread.detachNewThread {
                let start = DispatchTime.now().uptimeNanoseconds
                let result = Result { () throws(DeviceError) -> Spawner.Outcome in
                    try Spawner.run(
                        path: launch.executablePath, arguments: launch.arguments, environment: launch.environment,
                        logPath: launch.logPath, timeout: timeout, inheritedLock: lock, confinedTo: launch.confinedTo)
                }
                outcomes.set(index, result, seconds: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                ended(index)
                group.leave()
            }
        }
        whileRunning()
        group.wait()
        var results: [LaunchResult] = []
        for (index, launch) in prepared.enumerated() {
            let (result, duration) = outcomes.get(index)
            let outcome: Spawner.Outcome
            do {
                outcome = try result.get()
            } catch let error as DeviceError {
                throw error
            } catch {
                throw .spawnFailed(launch.executablePath, errno: EIO)
            }
            results.append(finishLaunch(launch, launches[index].options, outcome: outcome, duration: duration))
        }
        return results
    }

    /// What a launch needs once it is ready to spawn, and to read back after.
    struct PreparedLaunch: Sendable {
        var bundleID: String
        var buildID: String
        var executablePath: String
        var arguments: [String]
        var environment: [String]
        var logPath: String
        var mutationLogPath: String
        var statusPath: String
        var confinedTo: [String]?
    }

    private func prepareLaunch(_ bundleID: String, _ options: LaunchOptions) throws(DeviceError) -> PreparedLaunch {
        try requireBooted()
        let target = try launchTarget(bundleID, extension: options.extensionName)
        let app = target.app
        let process = target.process
        let logPath = options.logPath ?? layout.logsDirectory + "/" + process.bundleID + ".log"
        let mutationLogPath =
            options.mutationLogPath ?? layout.logsDirectory + "/" + process.bundleID + ".mutations.jsonl"
        // The seam appends; each launch starts its logs empty. Creating them here also names an
        // unwritable log in the error, rather than the executable that posix_spawn would name.
        // One open each (FileManager's createFile writes a temporary file and renames it); a
        // missing folder is made only when the open finds none (not looked for at every launch).
        for (path, what) in [(logPath, "log"), (mutationLogPath, "mutation log")] {
            var file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if file < 0 && errno == ENOENT {
                let folder = (path as NSString).deletingLastPathComponent
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            }
            guard file >= 0 else { throw .notWritable(path, reason: "cannot create the launch's \(what)") }
            close(file)
        }
        // The record is the truth; the file apps read is rewritten in case someone edited one of them.
        try refreshLockStateFile()
        // A status file is this launch's or none: one an earlier launch left goes first.
        let statusPath = target.dataContainer + "/" + LaunchStatus.relativePath
        guard unlink(statusPath) == 0 || errno == ENOENT else {
            throw .notWritable(statusPath, reason: "cannot remove the status file an earlier launch left")
        }

        var context = LaunchContext(
            udid: udid, deviceDirectory: layout.directory, bundleID: process.bundleID, identity: process.identity,
            runtime: record.runtime, keychainPath: layout.keychainPath, dataContainer: target.dataContainer,
            appGroupContainers: target.groups, lockStatePath: layout.lockStatePath, clock: record.clock,
            arguments: options.arguments, faultPlan: options.faultPlan, mutationLogPath: mutationLogPath,
            passcodeSet: record.passcodeSet, launcherPID: getpid())
        if let name = process.extensionName, let item = app.installedExtension(name) {
            context.appExtension = LaunchContext.AppExtension(name: name, kind: item.kind, hostBundleID: bundleID)
        }
        var launched = context
        if options.background { launched.background = true }
        if record.biometryGeneration != nil { launched.biometryGeneration = record.currentBiometryGeneration }
        launched.steps = options.steps
        let contextText: String
        do {
            contextText = try launched.encoded()
        } catch {
            throw .fileSystem(layout.directory, reason: "cannot encode the launch context (\(error))")
        }
        let environment = Self.environment(context: contextText, dataContainer: target.dataContainer, extra: options.environment)
        return PreparedLaunch(
            bundleID: process.bundleID, buildID: app.record.buildID, executablePath: process.executablePath,
            arguments: [process.executablePath] + options.arguments, environment: environment, logPath: logPath,
            mutationLogPath: mutationLogPath, statusPath: statusPath,
            confinedTo: options.confinedToDevice ? [layout.directory, logPath, mutationLogPath] : nil)
    }

    private func finishLaunch(
        _ prepared: PreparedLaunch, _ options: LaunchOptions, outcome: Spawner.Outcome, duration: Double
    ) -> LaunchResult {
        let mutationLogPath = prepared.mutationLogPath
        let statusPath = prepared.statusPath
        let mutations = MutationLogFile.read(mutationLogPath)
        var endedAtCrashPoint = false
        if let point = options.faultPlan.crashAfterMutation, outcome.termination == .signaled(SIGKILL) {
            // A power loss logs what it took after the point's own entry.
            endedAtCrashPoint = mutations.last(where: { $0.operation != .powerLoss })?.mutation == point
        }
        return LaunchResult(
            bundleID: prepared.bundleID, buildID: prepared.buildID, pid: outcome.pid,
            termination: outcome.termination, duration: duration, logPath: prepared.logPath,
            mutationLogPath: mutationLogPath, mutations: mutations, crashPoint: options.faultPlan.crashAfterMutation,
            endedAtCrashPoint: endedAtCrashPoint, statusFile: FileManager.default.contents(atPath: statusPath))
    }

    /// The app's environment: a few variables of the runner's that a Linux process needs, the Swift
    /// crash backtracer turned off, deterministic hashing (`SWIFT_DETERMINISTIC_HASHING=1`), the caller's `SIMCTL_CHILD_*` variables without their prefix, `extra`, the simulator's home
    /// variables, and the launch context.
    /// What every app inherits from this process, read once.
    private static let inherited: [String: String] = {
        var values: [String: String] = [:]
        let parent = ProcessInfo.processInfo.environment
        for key in ["PATH", "LANG", "LC_ALL", "LD_LIBRARY_PATH"] { values[key] = parent[key] }
        // A crashing app should end at once, as on a device, not spend seconds printing a backtrace.
        values["SWIFT_BACKTRACE"] = "enable=no"
        // Same inputs, same bytes, down to the files an app writes: without a per-process hash seed,
        // a dictionary archived or written as a property list has the same byte order in every
        // launch (the order is the only thing the seed changes). Exploration compares device states
        // by their bytes, so a state two launches reach alike is recognised as one.
        values["SWIFT_DETERMINISTIC_HASHING"] = "1"
        for (key, value) in parent where key.hasPrefix("SIMCTL_CHILD_") { values[String(key.dropFirst(13))] = value }
        return values
    }()

    static func environment(context: String, dataContainer: String, extra: [String: String]) -> [String] {
        var values = inherited
        values.merge(extra) { $1 }
        // Foundation's own paths, in the container as on iOS: NSHomeDirectory() and Documents
        // (HOME, CFFIXED_USER_HOME), NSTemporaryDirectory() (TMPDIR), Application Support and
        // Caches in `FileManager.urls(for:in:)` (XDG_DATA_HOME, XDG_CACHE_HOME), and the folder where
        // a UserDefaults that is not routed to the device writes on synchronize() (XDG_CONFIG_HOME).
        values["HOME"] = dataContainer
        values["CFFIXED_USER_HOME"] = dataContainer
        for (key, value) in containerPaths(dataContainer) { values[key] = value }
        values[LaunchContext.environmentKey] = context
        return values.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// The variables of Foundation's paths in `dataContainer` (``environment(context:dataContainer:extra:)``),
    /// worked out through `URL`s once per container and process: a container is launched from
    /// again and again, and its paths do not change.
    private static func containerPaths(_ dataContainer: String) -> [(String, String)] {
        if let known = containerPathsLock.withLock({ knownContainerPaths[dataContainer] }) { return known }
        let paths = AppContainers(home: URL(fileURLWithPath: dataContainer, isDirectory: true))
        let values = [
            ("TMPDIR", paths.tmp.path + "/"), ("XDG_DATA_HOME", paths.applicationSupport.path),
            ("XDG_CACHE_HOME", paths.caches.path), ("XDG_CONFIG_HOME", paths.preferences.path),
        ]
        containerPathsLock.withLock {
            // Bounded: a gate launches in a few thousand containers at most; past that it starts over.
            if knownContainerPaths.count >= 4096 { knownContainerPaths.removeAll() }
            knownContainerPaths[dataContainer] = values
        }
        return values
    }

    private static let containerPathsLock = NSLock()
    nonisolated(unsafe) private static var knownContainerPaths: [String: [(String, String)]] = [:]
}

/// The outcomes of launches run together, each set by its own thread.
private final class LaunchOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [(Result<Spawner.Outcome, DeviceError>, Double)?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Spawner.Outcome, DeviceError>, seconds: Double) {
        lock.withLock { results[index] = (result, seconds) }
    }

    func get(_ index: Int) -> (Result<Spawner.Outcome, DeviceError>, Double) {
        lock.withLock { results[index] ?? (.failure(.interrupted), 0) }
    }
}
