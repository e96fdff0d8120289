import Foundation
import SimDevice
import SimRuntime

/// `upgrade-runner gate`: every old-to-new path of the builds through every scenario.
enum GateCommand {
    static let spec = CommandSpec(
        ["gate"], summary: "Run the release gate over every old-to-new path and scenario.",
        options: [
            OptionSpec("--builds", value: "IDS", "The builds, oldest first, comma-separated (default: v1,v2,v3)."),
            OptionSpec(
                "--routes", value: "LIST",
                "Upgrade routes instead of the default ones, comma-separated, each builds joined by > or -to-, such as 'v1>v2>v3,v1>v3' (quote it: > redirects in a shell)."
            ),
            OptionSpec(
                "--scenarios", value: "LIST", "The scenarios to run, comma-separated (default: all, exploration included)."),
            OptionSpec("--shard", value: "I/N", "Run the I-th of N deterministic slices (for a CI job matrix)."),
        ] + GateOptions.shared,
        discussion: """
            Runs every upgrade route between the builds (every ordered pair old < new, and the chain through every build
            in order with its prefixes, such as v1-to-v2-to-v3; plus a fresh install of each) through every scenario, each
            on a fresh device, and writes run.json, gate.json, junit.xml, summary.md, timings.json and
            paths/<old>-to-<new>/<scenario>/ (status files, logs, entitlements.diff, a redacted device snapshot on failure)
            to the artifacts folder, then prints the verdict table. On a route the first build seeds, each later build is
            installed in place and launched twice as a user would, and the scenario runs against the last build, judged
            against what the first one seeded (folder paths/v1-to-v2-to-v3/<scenario>/). --routes replaces the default
            routes (each closed under prefixes: 'v1>v2>v3' also runs v1-to-v2) and cannot be given with --builds: the
            builds are those the routes name, ordered by build number. With --runtimes, every cell runs on each runtime, under
            paths/<runtime>/<old>-to-<new>/<scenario>/ (such as paths/iOS-15.0/v1-to-v2/upgrade/), with a verdict per
            runtime and overall. The verdict fails closed: a cell that did not finish,
            a missing shard or an interrupted run makes it UNKNOWN, never PASS.
            Exit code: 0 PASS, 1 FAIL, 2 bad usage or input, 3 UNKNOWN.
            """)

    static func run(_ invocation: Invocation) throws -> Int32 {
        var builds = (invocation.option("--builds") ?? "v1,v2,v3").split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let scenarios = try invocation.option("--scenarios").map { try Scenario.parseList($0) } ?? Scenario.gateDefault
        let shard = try invocation.option("--shard").map { try ShardSpec(parsing: $0) }
        var routes: [BuildPair]?
        if let text = invocation.option("--routes") {
            if invocation.option("--builds") != nil {
                throw UsageError.invalidValue(
                    text, for: "--routes", reason: "cannot be given with --builds (the builds are those the routes name)")
            }
            let given = try parseRoutes(text)
            builds = try orderedBuilds(of: given, catalog: invocation.buildCatalog)
            routes = given
        }
        return try GateOptions.execute(invocation, builds: builds, path: nil, routes: routes, scenarios: scenarios, shard: shard)
    }

    /// Parses `--routes`: routes separated by commas, each builds joined by `>` or `-to-`.
    /// - Throws: ``GateError/invalidValue(flag:value:reason:)`` naming the flag and the route, for an
    ///   empty list, a route of fewer than two builds, a bad build id or a build named twice in a route.
    static func parseRoutes(_ text: String) throws(GateError) -> [BuildPair] {
        var routes: [BuildPair] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let spelled = entry.trimmingCharacters(in: .whitespaces)
            guard let route = BuildPair(routeText: entry) else {
                throw .invalidValue(flag: "--routes", value: spelled, reason: "names fewer than two builds")
            }
            for (index, id) in route.builds.enumerated() {
                do { try BuildPair.validate(buildID: id) } catch {
                    guard case .invalidBuildID(_, let why) = error else { throw error }
                    throw .invalidValue(flag: "--routes", value: spelled, reason: "names build \"\(id)\", which \(why)")
                }
                if route.builds[..<index].contains(id) {
                    throw .invalidValue(flag: "--routes", value: spelled, reason: "names build \"\(id)\" twice")
                }
            }
            if !routes.contains(route) { routes.append(route) }
        }
        return routes
    }

    /// The builds `routes` name, each once, ordered by build number, checked against the catalogue
    /// and each route's own order.
    /// - Throws: ``GateError/invalidValue(flag:value:reason:)`` naming `--routes` and the route, for a
    ///   build the catalogue does not hold or a route against build order.
    static func orderedBuilds(of routes: [BuildPair], catalog: BuildCatalog) throws -> [String] {
        var resolved: [String: Build] = [:]
        for route in routes {
            let text = route.builds.joined(separator: ">")
            for id in route.builds where resolved[id] == nil {
                do { resolved[id] = try catalog.build(id) } catch {
                    throw GateError.invalidValue(
                        flag: "--routes", value: text, reason: "names unknown build \"\(id)\" (\(error))")
                }
            }
            try GateOptions.checkOrder(route.builds, resolved, flag: "--routes", value: text)
        }
        return resolved.keys.sorted {
            BuildManifest.compareBuildNumbers(resolved[$0]!.manifest.buildNumber, resolved[$1]!.manifest.buildNumber)
                == .orderedAscending
        }
    }
}

/// `upgrade-runner run`: one upgrade path.
enum RunCommand {
    static let spec = CommandSpec(
        ["run"], summary: "Run one upgrade path.",
        options: [
            OptionSpec("--from", value: "OLD", "The old build id (leave out for a fresh install of NEW)."),
            OptionSpec("--to", value: "NEW", "The new build id."),
            OptionSpec(
                "--scenario", value: "LIST", "The scenarios, comma-separated (default: upgrade, or fresh-install without --from)."
            ),
        ] + GateOptions.shared,
        discussion: """
            Installs OLD on a fresh device, seeds it, upgrades in place to NEW, launches and verifies, and judges the
            path's gate conditions; the artifacts are the gate's, for one path.
            Exit code: 0 PASS, 1 FAIL, 2 bad usage or input, 3 UNKNOWN.
            """)

    static func run(_ invocation: Invocation) throws -> Int32 {
        guard let new = invocation.option("--to") else { throw UsageError.missingOption("--to", command: "run") }
        let old = invocation.option("--from")
        if old == new {
            throw UsageError.invalidValue(new, for: "--to", reason: "is also --from: a path goes from one build to another")
        }
        let path = BuildPair(old: old, new: new)
        let scenarios =
            try invocation.option("--scenario").map { try Scenario.parseList($0, flag: "--scenario") }
            ?? [old == nil ? .freshInstall : .upgrade]
        return try GateOptions.execute(
            invocation, builds: [old, new].compactMap { $0 }, path: path, scenarios: scenarios, shard: nil)
    }
}

/// What `gate` and `run` share: their common options and how they run.
enum GateOptions {
    static let shared: [OptionSpec] = [
        OptionSpec(
            "--case-id", value: "ID",
            "The test-case id the secrets derive from: up to 64 of A-Z a-z 0-9 - _, not starting with - (default: random, recorded in run.json)."
        ),
        OptionSpec("--runtime", value: "VERSION", "The devices' runtime, such as \"iOS 17.5\" (default: iOS 17.5)."),
        OptionSpec(
            "--runtimes", value: "LIST",
            "A runtime matrix: every cell on each runtime, comma-separated, such as \"iOS 12.4,iOS 15.0,iOS 17.5\"."),
        OptionSpec("--out", value: "DIR", "The artifacts folder (default: artifacts/gate, replaced on each run)."),
        OptionSpec(
            "--archive-inputs",
            "Copy every build's manifest, entitlements and executable into DIR/inputs/, so replay needs only the artifacts."),
        OptionSpec("--force", "Write into an --out that also holds files that are not a run's (they are left in place)."),
        OptionSpec("--quiet", "Print no progress on standard error (the verdict table still goes to standard output)."),
        OptionSpec("--timeout", value: "SECONDS", "Seconds before a hanging app launch is killed (default: 30)."),
        CommonOptions.jobs, CommonOptions.buildsDir, CommonOptions.products,
    ]

    /// A gate's builds go oldest first, by build number: in another order its paths would judge
    /// downgrades as upgrades. (`run --from NEW --to OLD` is a downgrade asked for by name.)
    /// - Throws: ``GateError/invalidValue(flag:value:reason:)`` naming both builds.
    static func checkOrder(
        _ ids: [String], _ builds: [String: Build], flag: String = "--builds", value: String? = nil
    ) throws(GateError) {
        for (older, newer) in zip(ids, ids.dropFirst()) {
            guard let old = builds[older]?.manifest, let new = builds[newer]?.manifest else { continue }
            guard BuildManifest.compareBuildNumbers(old.buildNumber, new.buildNumber) != .orderedAscending else { continue }
            throw .invalidValue(
                flag: flag, value: value ?? ids.joined(separator: ","),
                reason: "lists \(older) (build \(old.buildNumber)) before \(newer) (build \(new.buildNumber)): "
                    + "builds go oldest first, by build number")
        }
    }

    /// The default artifacts folder; a run replaces the previous one there.
    static let defaultOut = "artifacts/gate"

    static func execute(
        _ invocation: Invocation, builds: [String], path: BuildPair?, routes: [BuildPair]? = nil,
        scenarios: [Scenario], shard: ShardSpec?
    ) throws -> Int32 {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        let catalog = invocation.buildCatalog
        for id in builds { try BuildPair.validate(buildID: id) }
        var runtime =
            try invocation.option("--runtime").map { text throws(UsageError) -> RuntimeVersion in
                guard let version = RuntimeVersion(text) else {
                    throw .invalidValue(text, for: "--runtime", reason: "is not an iOS runtime such as \"iOS 17.5\"")
                }
                return version
            } ?? .current
        var runtimes = try invocation.option("--runtimes").map { try RuntimeVersion.parseList($0) }
        if let list = runtimes {
            if invocation.option("--runtime") != nil {
                throw UsageError.invalidValue(
                    invocation.option("--runtimes")!, for: "--runtimes",
                    reason: "cannot be given with --runtime (name it in the list)")
            }
            // One runtime is no matrix: the run and its artifacts are those of --runtime.
            runtime = list[0]
            if list.count == 1 { runtimes = nil }
        }
        let caseID = try invocation.caseID()
        let jobs = try invocation.integer("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        let timeout = Double(try invocation.integer("--timeout", in: 1...3600) ?? 30)
        let resolved = try GateRun.resolveBuilds(builds, catalog: catalog)
        // A gate's builds go oldest first; `run` takes the one path it is given, a downgrade too.
        if path == nil { try checkOrder(builds, resolved) }
        var inputs = RunInputs(
            builds: builds, path: path, runtime: runtime, caseID: caseID, scenarios: scenarios,
            buildFiles: [:], runnerVersion: UpgradeRunnerVersion.current, shard: shard,
            routes: path == nil ? try GatePlan.recordedRoutes(builds: builds, given: routes) : nil)
        inputs.runtimes = runtimes
        // The plan first: a plan that cannot run (no scenario applies to any path) is bad input
        // found before any executable is hashed or launched.
        _ = try inputs.plan()
        inputs.buildFiles = try GateRun.pin(resolved)
        if invocation.flag("--archive-inputs") {
            inputs.archivedInputs = try ArchivedInputs.plan(for: resolved, pins: inputs.buildFiles)
        }
        let out = invocation.absolute(invocation.option("--out") ?? defaultOut)
        let force = invocation.flag("--force") || invocation.option("--out") == nil
        let console = invocation.console
        let run = GateRun(
            inputs: inputs, outFolder: out, jobs: jobs, force: force, timeout: timeout,
            progress: GateProgress(console: console, quiet: invocation.flag("--quiet")))
        let report = try run.execute(builds: resolved)
        console.output(GateArtifacts.summaryText(report: report, inputs: inputs), terminator: "")
        if !invocation.flag("--quiet") { console.error("artifacts: \(out)") }
        return report.verdict.exitCode
    }
}

/// The runner's version, recorded in run.json.
public enum UpgradeRunnerVersion {
    public static let current = "0.1.0"
}

/// SIGINT and SIGTERM end the runner with exit code 3 (UNKNOWN): the artifacts on disk already say
/// UNKNOWN until the run completes. The signal handler only writes the signal number to a pipe; a
/// thread waiting on the pipe removes the run's temporary devices (their keychains hold the case's
/// secrets in the clear) and exits, outside the signal handler.
enum InterruptHandling {
    nonisolated(unsafe) private static var pipeEnds: [Int32] = [-1, -1]
    private static let state = NSLock()
    nonisolated(unsafe) private static var interrupting = false

    /// Blocks for good while an interrupt is being handled: the handler ends the process with exit
    /// code 3 once the apps are stopped and the devices removed, and the run must not end first
    /// with its own exit code while that removal is under way.
    static func waitIfInterrupted() {
        guard state.withLock({ interrupting }) else { return }
        while true { pause() }
    }

    private static let installed: Void = {
        guard pipe(&pipeEnds) == 0 else { return }
        let reader = pipeEnds[0]
        let thread = Thread {
            var received: Int32 = 0
            while read(reader, &received, MemoryLayout<Int32>.size) < 0 && errno == EINTR {}
            state.withLock { interrupting = true }
            LaunchedProcesses.stopAll()
            usleep(20_000)  // the kernel tears the killed apps down; none writes after this
            TemporaryDevices.removeAll()
            let message = "upgrade-runner: interrupted by signal \(received); the verdict is UNKNOWN\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            _exit(3)
        }
        thread.start()
        // A parent may have started us with these signals blocked (Foundation's Process does, from
        // some threads); a blocked SIGTERM would stay pending while the run went on to a verdict.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber) { received in
                var number = received
                _ = write(InterruptHandling.pipeEnds[1], &number, MemoryLayout<Int32>.size)
            }
        }
    }()

    static func install() { installed }
}
