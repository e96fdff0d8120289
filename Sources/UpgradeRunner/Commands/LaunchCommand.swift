import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

enum LaunchCommand {
    static let spec = CommandSpec(
        ["launch"], summary: "Launch an installed app as a process and wait for it.",
        arguments: [CommonOptions.device, CommonOptions.bundleID],
        options: [
            Options.appExtension, Options.timeout, Options.log, Options.crashAfter, Options.powerLoss, Options.faultPlan,
            Options.background, CommonOptions.json, CommonOptions.devicesRoot,
        ],
        passthrough: ArgumentSpec("ARGS", "Launch arguments for the app; -Key value pairs also reach its preferences."),
        discussion: """
            Starts the installed executable with posix_spawn, with a launch context (device, identity from the install
            record, containers, lock state, clock, arguments, fault plan) in its environment; SIMCTL_CHILD_FOO=x in this
            environment becomes FOO=x in the app's. Waits for it and reports how it ended (--extension: one of its extensions).
            Exit code: 0 when the app exited with status 0 or ended at the planned crash point, 1 when it exited with
            another status, 2 when it was killed by a signal or timed out.
            """)

    struct Report: Encodable {
        var bundleID: String
        var buildID: String
        var pid: Int32
        var exitStatus: Int32?
        var signal: Int32?
        var timedOut: Bool
        var crashPoint: Int?
        var endedAtCrashPoint: Bool
        var milliseconds: Int
        var log: String
        var mutationLog: String
    }

    /// The options of `launch`, read and checked once (the fault plan file read and parsed).
    struct Options {
        static let appExtension = OptionSpec(
            "--extension", value: "NAME",
            "Launch the app's extension of this name instead: its own process, bundle id, entitlements and container.")
        static let timeout = OptionSpec(
            "--timeout", value: "SECONDS", "Kill the app with SIGKILL after this long (default: 30).")
        static let log = OptionSpec(
            "--log", value: "FILE", "Where the app's stdout and stderr go (default: <device>/logs/<bundle id>.log).")
        static let crashAfter = OptionSpec(
            "--crash-after", value: "K", "Kill the app right after its K-th store mutation (a crash point).")
        static let powerLoss = OptionSpec(
            "--power-loss",
            "With --crash-after: the crash is a device power loss, which also takes the launch's preference sets and unsynced file data."
        )
        static let faultPlan = OptionSpec("--fault-plan", value: "FILE", "A fault plan (JSON) for the app's store operations.")
        static let background = OptionSpec(
            "--background",
            "Launch in the background (a fetch, a push): no Face ID, Touch ID or passcode prompt, so items whose access control needs one answer errSecInteractionNotAllowed."
        )

        /// The launch, but for its arguments (those after `--`).
        var launch = LaunchOptions(arguments: [])
        var json: Bool
        var devices: DevicesRoot

        init(_ options: OptionValues) throws {
            if let text = options.value(Self.timeout) {
                guard let seconds = Double(text), seconds > 0 else {
                    throw UsageError.invalidValue(text, for: "--timeout", reason: "is not a positive number of seconds")
                }
                launch.timeout = seconds
            }
            if let path = options.value(Self.faultPlan) {
                launch.faultPlan = try LaunchCommand.readFaultPlan(options.absolute(path))
            }
            if let point = try options.integer(Self.crashAfter, in: 1...1_000_000) {
                launch.faultPlan.crashAfterMutation = point
            }
            if options.flag(Self.powerLoss) {
                guard launch.faultPlan.crashAfterMutation != nil else {
                    throw UsageError.missingOption("--crash-after (for --power-loss)", command: "launch")
                }
                launch.faultPlan.powerLoss = true
            }
            launch.background = options.flag(Self.background)
            launch.logPath = options.value(Self.log).map(options.absolute)
            launch.extensionName = options.value(Self.appExtension)
            json = options.flag(CommonOptions.json)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        var launch = options.launch
        launch.arguments = invocation.passthrough
        let bundleID = invocation.argument(CommonOptions.bundleID)
        let session = try options.devices.session(invocation)
        if let name = launch.extensionName {
            guard let app = session.installedApps().first(where: { $0.bundleID == bundleID }) else {
                throw DeviceError.notInstalled(bundleID: bundleID, udid: session.udid)
            }
            guard app.installedExtension(name) != nil else {
                let names = app.extensions.map(\.name)
                throw UsageError.invalidValue(
                    name, for: "--extension",
                    reason:
                        "is not an extension of \(bundleID) (\(names.isEmpty ? "it has none" : names.joined(separator: ", ")))")
            }
        }
        let result = try session.launch(bundleID, launch)

        if options.json {
            var exitStatus: Int32?, signal: Int32?
            switch result.termination {
            case .exited(let code): exitStatus = code
            case .signaled(let number): signal = number
            case .timedOut: signal = SIGKILL
            }
            try invocation.printJSON(
                Report(
                    bundleID: result.bundleID, buildID: result.buildID, pid: result.pid, exitStatus: exitStatus, signal: signal,
                    timedOut: { if case .timedOut = result.termination { true } else { false } }(),
                    crashPoint: result.crashPoint, endedAtCrashPoint: result.endedAtCrashPoint,
                    milliseconds: Int(result.duration * 1000), log: result.logPath, mutationLog: result.mutationLogPath))
        }
        let summary = "\(result.bundleID) (\(result.buildID)) pid \(result.pid) \(result.termination)"
        if result.endedAtCrashPoint {
            if !options.json {
                invocation.console.output("\(summary) at planned crash point \(result.crashPoint ?? 0); log: \(result.logPath)")
            }
            return ExitStatus.pass
        }
        switch result.termination {
        case .exited(0):
            if !options.json {
                invocation.console.output("\(summary) in \(Int(result.duration * 1000)) ms; log: \(result.logPath)")
            }
            return ExitStatus.pass
        case .exited:
            throw CommandFailure(message: "\(summary); log: \(result.logPath)", code: ExitStatus.fail)
        case .signaled, .timedOut:
            throw CommandFailure(message: "\(summary); log: \(result.logPath)", code: ExitStatus.usage)
        }
    }

    private static func readFaultPlan(_ path: String) throws -> FaultPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError.invalidValue(path, for: "--fault-plan", reason: "cannot be read")
        }
        let plan: FaultPlan
        do {
            plan = try JSONDecoder().decode(FaultPlan.self, from: data)
        } catch {
            throw UsageError.invalidValue(
                path, for: "--fault-plan", reason: "is not a fault plan: \(JSONProblem.describe(error))")
        }
        if let key = DuplicateKeys.first(in: data) {
            throw UsageError.invalidValue(path, for: "--fault-plan", reason: DuplicateKeys.reason(key))
        }
        return plan
    }
}
