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
            Options.appExtension, Options.beside, Options.schedule, Options.timeout, Options.log, Options.crashAfter,
            Options.powerLoss, Options.faultPlan,
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
        static let beside = OptionSpec(
            "--beside", value: "NAME",
            "With --schedule: launch the app and its extension of this name at the same time (an interleavings schedule).")
        static let schedule = OptionSpec(
            "--schedule", value: "ID",
            "With --beside: the order of the two launches' store operations, a (the app) or e (the extension) a step; then the last goes on."
        )
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
        /// --beside and --schedule: the extension launched beside the app, and the schedule's choices.
        var interleaving: (beside: String, choices: [Int])?

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
            switch (options.value(Self.beside), options.value(Self.schedule)) {
            case (let name?, let id?):
                guard let choices = ScheduleTrace.choices(id), !choices.isEmpty else {
                    throw UsageError.invalidValue(id, for: "--schedule", reason: "is not a schedule id (letters a and e)")
                }
                guard launch.extensionName == nil else {
                    throw UsageError.invalidValue(name, for: "--beside", reason: "cannot be given with --extension")
                }
                guard launch.faultPlan == .none else {
                    throw UsageError.invalidValue(
                        name, for: "--beside", reason: "cannot be given with a fault plan or crash point")
                }
                interleaving = (name, choices)
            case (_?, nil): throw UsageError.missingOption("--schedule (for --beside)", command: "launch")
            case (nil, _?): throw UsageError.missingOption("--beside (for --schedule)", command: "launch")
            case (nil, nil): break
            }
            json = options.flag(CommonOptions.json)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        var launch = options.launch
        launch.arguments = invocation.passthrough
        let bundleID = invocation.argument(CommonOptions.bundleID)
        let session = try options.devices.session(invocation)
        if let interleaving = options.interleaving {
            return try runTogether(launch, interleaving, bundleID: bundleID, session: session, options, invocation)
        }
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

    /// `--beside NAME --schedule ID`: the app and its extension at once, their steps granted in the schedule's order.
    private static func runTogether(
        _ launch: LaunchOptions, _ interleaving: (beside: String, choices: [Int]), bundleID: String, session: DeviceSession,
        _ options: Options, _ invocation: Invocation
    ) throws -> Int32 {
        guard let app = session.installedApps().first(where: { $0.bundleID == bundleID }) else {
            throw DeviceError.notInstalled(bundleID: bundleID, udid: session.udid)
        }
        guard app.installedExtension(interleaving.beside) != nil else {
            let names = app.extensions.map(\.name)
            throw UsageError.invalidValue(
                interleaving.beside, for: "--beside",
                reason: "is not an extension of \(bundleID) (\(names.isEmpty ? "it has none" : names.joined(separator: ", ")))")
        }
        let folder = session.layout.directory + "/steps"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pipes = [try StepPipes(folder: folder, name: "app"), try StepPipes(folder: folder, name: "extension")]
        var appLaunch = launch
        appLaunch.steps = pipes[0].channel
        var extensionLaunch = launch
        extensionLaunch.extensionName = interleaving.beside
        extensionLaunch.steps = pipes[1].channel
        // Its own log, beside the app's: the default is the extension's bundle id's.
        extensionLaunch.logPath = launch.logPath.map { $0 + "." + interleaving.beside }
        var trace = ScheduleTrace()
        let results = try session.launchTogether(
            [(bundleID, appLaunch), (bundleID, extensionLaunch)], ended: { pipes[$0].ended() },
            whileRunning: { trace = StepScheduler.run(interleaving.choices, pipes: pipes) })
        let reports = results.map { result -> Report in
            var exitStatus: Int32?, signal: Int32?
            switch result.termination {
            case .exited(let code): exitStatus = code
            case .signaled(let number): signal = number
            case .timedOut: signal = SIGKILL
            }
            return Report(
                bundleID: result.bundleID, buildID: result.buildID, pid: result.pid, exitStatus: exitStatus, signal: signal,
                timedOut: { if case .timedOut = result.termination { true } else { false } }(),
                crashPoint: nil, endedAtCrashPoint: false, milliseconds: Int(result.duration * 1000), log: result.logPath,
                mutationLog: result.mutationLogPath)
        }
        if options.json {
            try invocation.printJSON(TogetherReport(schedule: trace.id, diverged: trace.diverged, launches: reports))
        }
        let summary =
            "schedule \(trace.id): "
            + results.map { "\($0.bundleID) (\($0.buildID)) pid \($0.pid) \($0.termination)" }.joined(separator: "; ")
        if trace.diverged {
            throw CommandFailure(
                message:
                    "\(summary); the launches ran otherwise than --schedule \(ScheduleTrace(choices: interleaving.choices).id)",
                code: ExitStatus.fail)
        }
        if results.allSatisfy({ $0.termination == .exited(0) }) {
            if !options.json { invocation.console.output(summary) }
            return ExitStatus.pass
        }
        let killed = results.contains { if case .exited = $0.termination { false } else { true } }
        throw CommandFailure(message: summary, code: killed ? ExitStatus.usage : ExitStatus.fail)
    }

    struct TogetherReport: Encodable {
        var schedule: String
        var diverged: Bool
        var launches: [Report]
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
