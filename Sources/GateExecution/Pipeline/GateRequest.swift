import Foundation
import GateModel
import SimDevice
import SimRuntime
import UpgradeContract

/// A gate to run, everything decided: what `gate` and `run` read from the command line, and what a
/// Swift caller gives ``ReleaseGate/run(_:progress:)``. Checked before anything runs: the case id,
/// jobs and timeout, the build ids, the builds (each in the catalogue, with its executable), their
/// order and the plan; then the builds are pinned and the cells run.
public struct GateRequest: Sendable {
    /// The builds, oldest first by build number (`--builds`; default v1, v2, v3).
    public var builds: [String]
    /// The one path of `run` (nil for a gate, whose paths the plan makes from ``builds`` and ``routes``).
    public var path: BuildPair?
    /// Upgrade routes instead of the default ones (`--routes`), each closed under its prefixes; their
    /// builds must be ``builds``.
    public var routes: [BuildPair]?
    /// The release under test (`--release`; default nil: the newest of ``builds``): only the paths
    /// that end at it decide the verdict; the others are shipped history, reported.
    public var release: String?
    /// A FAIL the old release already had (pre-existing) decides the verdict too (`--strict`).
    public var strict = false
    /// The scenarios (`--scenarios`; default: all, exploration included).
    public var scenarios: [Scenario]
    /// Whether ``scenarios`` were named (`--scenarios`, `run --scenario`) rather than the default
    /// list: a named scenario that needs an app extension (extension-first, interleavings) where no
    /// path's new build declares one is bad input; an unnamed one is left out (default: false).
    public var scenariosNamed = false
    /// Which of the inputs the gate varies to use (`--inputs`; default: all of them). The minimal
    /// set leaves out late-upgrade and seed-variants and honest-status's second clock.
    public var inputSet = InputSet.full
    /// One deterministic slice of the cells (`--shard`).
    public var shard: ShardSpec?
    /// The devices' runtime (`--runtime`; default iOS 17.5).
    public var runtime: RuntimeVersion
    /// A runtime matrix of two or more (`--runtimes`); ``runtime`` is then its first.
    public var runtimes: [RuntimeVersion]?
    /// The test-case id the secrets derive from (`--case-id`; default: random).
    public var caseID: String
    /// Cells run in parallel, 1 to 64 (`--jobs`; default: the number of CPUs).
    public var jobs: Int
    /// Seconds before a hanging app launch is killed, 1 to 3600 (`--timeout`; default 30).
    public var timeout: Double
    /// The artifacts folder, absolute (`--out`).
    public var out: String
    /// Write into an `out` that also holds files that are not a run's (`--force`).
    public var force: Bool
    /// Copy every build's files into `out/inputs/`, so replay needs only the artifacts (`--archive-inputs`).
    public var archiveInputs: Bool
    /// The archived builds folder (`builds/`, each `<id>/build.json`), absolute.
    public var buildsFolder: String
    /// Where the builds' executables are (such as `.build/debug`), absolute.
    public var productsFolder: String
    /// Keep the devices of what failed here (`--keep-failed`; ``KeptDevices``), absolute; nil: none kept.
    public var keepFailed: String?

    /// The builds a gate runs when none are named: the sample app's releases, oldest first.
    public static let defaultBuilds = ["v1", "v2", "v3"]

    /// A gate over `builds` (oldest first) writing to `out`, with the command line's defaults.
    public init(
        builds: [String] = GateRequest.defaultBuilds, routes: [BuildPair]? = nil, scenarios: [Scenario] = Scenario.gateDefault,
        shard: ShardSpec? = nil, runtime: RuntimeVersion = .current, runtimes: [RuntimeVersion]? = nil,
        caseID: String = CaseSecrets.randomCaseID(), jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        timeout: Double = 30, out: String, force: Bool = false, archiveInputs: Bool = false, buildsFolder: String,
        productsFolder: String
    ) {
        self.builds = builds
        self.path = nil
        self.routes = routes
        self.scenarios = scenarios
        self.shard = shard
        self.runtime = runtime
        self.runtimes = runtimes
        self.caseID = caseID
        self.jobs = jobs
        self.timeout = timeout
        self.out = out
        self.force = force
        self.archiveInputs = archiveInputs
        self.buildsFolder = buildsFolder
        self.productsFolder = productsFolder
    }

    /// Runs the request and returns its report and inputs (both also written to ``out``).
    package func execute(progress: GateProgress) throws -> (report: GateReport, inputs: RunInputs) {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        // The command line has checked these; a Swift caller gets the same one-line errors.
        try RequestLimits.check(caseID: caseID, jobs: jobs, timeout: timeout)
        for id in builds { try BuildPair.validate(buildID: id) }
        if let release, !builds.contains(release) {
            throw GateError.invalidValue(
                field: .release, value: release, reason: "is not one of the builds (\(builds.joined(separator: ", ")))")
        }
        let catalog = BuildCatalog(folder: buildsFolder, productsFolder: productsFolder)
        let resolved = try GatePipeline.resolve(builds, in: catalog)
        try OutputFolder.checkOutside(out, inputs: catalog.inputFolders)
        // A gate's builds go oldest first; `run` takes the one path it is given, a downgrade too.
        if path == nil { try Self.checkOrder(builds, resolved) }
        let scenarios = inputSet == .minimal ? scenarios.filter { !InputSet.fullOnly.contains($0) } : scenarios
        if scenarios.isEmpty {
            throw GateError.invalidValue(
                field: .inputSet, value: inputSet.rawValue,
                reason: "leaves out every scenario asked for (\(self.scenarios.map(\.rawValue).joined(separator: ",")))")
        }
        var inputs = RunInputs(
            builds: builds, path: path, runtime: runtime, caseID: caseID, scenarios: scenarios,
            buildFiles: [:], runnerVersion: UpgradeRunnerVersion.current, shard: shard,
            routes: path == nil ? try GatePlan.recordedRoutes(builds: builds, given: routes) : nil)
        inputs.runtimes = runtimes
        inputs.release = path == nil ? release : nil
        inputs.strict = strict ? true : nil
        inputs.inputSet = inputSet == .minimal ? .minimal : nil
        try inputs.recordBuildFeatures(
            of: resolved, named: scenariosNamed ? (path == nil ? .scenarios : .named("--scenario")) : nil)
        return try GatePipeline(
            inputs: inputs, builds: resolved, out: out,
            settings: RunSettings(
                jobs: jobs, timeout: timeout, force: force, archiveInputs: archiveInputs, keepFailed: keepFailed),
            progress: progress
        ).run()
    }

    /// A gate's builds go oldest first, by build number: in another order its paths would judge
    /// downgrades as upgrades. (`run --from NEW --to OLD` is a downgrade asked for by name.) The one
    /// check of build order: a route's is against this list's (``GatePlan``).
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming both builds.
    static func checkOrder(_ ids: [String], _ builds: [String: Build]) throws(GateError) {
        for (older, newer) in zip(ids, ids.dropFirst()) {
            guard let old = builds[older]?.manifest, let new = builds[newer]?.manifest else { continue }
            guard BuildManifest.compareBuildNumbers(old.buildNumber, new.buildNumber) != .orderedAscending else { continue }
            throw .invalidValue(
                field: .builds, value: ids.joined(separator: ","),
                reason: "lists \(older) (build \(old.buildNumber)) before \(newer) (build \(new.buildNumber)): "
                    + "builds go oldest first, by build number")
        }
    }
}

/// Runs the release gate from Swift, as `upgrade-runner gate` does: the same checks, cells,
/// verdict and artifacts (run.json, gate.json, junit.xml, summary.md, timings.json, paths/) in
/// ``GateRequest/out``; nothing is printed.
///
/// ```swift
/// import UpgradeRunner
///
/// let request = GateRequest(
///     builds: ["v1", "v2"], scenarios: [.upgrade], caseID: "ci-1234", out: "/tmp/gate",
///     buildsFolder: "/work/app/builds", productsFolder: "/work/app/.build/debug")
/// let report = try ReleaseGate.run(request) { line in print(line) }
/// if report.verdict != .pass { print(report.reasons) }
/// ```
///
/// Bad input (an unknown build, builds out of order, a bad case id) throws before any cell runs;
/// ``ExitStatus/report(_:)`` gives any thrown error's one-line message and the exit code the command
/// line would end with (2 bad input, 3 the run could not complete). While it runs, SIGINT and SIGTERM
/// remove the run's temporary devices and end the process with exit code 3, as they end the runner.
public enum ReleaseGate {
    /// Runs `request` and returns its report (also written to `request.out` as gate.json).
    /// - Parameter progress: each progress line (the plan, then each finished cell), without its newline.
    public static func run(
        _ request: GateRequest, progress: (@Sendable (String) -> Void)? = nil
    ) throws -> GateReport {
        let reporter =
            progress.map { write in
                GateProgress(style: .lines) { write($0.hasSuffix("\n") ? String($0.dropLast()) : $0) }
            } ?? .silent
        return try request.execute(progress: reporter).report
    }
}

extension BuildCatalog {
    /// The folders a run reads its builds from, which its output folder may not be in
    /// (``OutputFolder/checkOutside(_:inputs:)``).
    package var inputFolders: [(name: String, folder: String)] {
        [("the builds folder", folder), ("the products folder", productsFolder)]
    }
}
