import Foundation
import SimDevice
import SimRuntime

/// A gate to run (or one path, for `run`), everything decided: what `gate` and `run` read from the
/// command line, and what runs it. Checked before anything runs: the build ids, the builds (each
/// must be in the catalogue, with its executable), their order, and the plan; then the builds are
/// pinned and the cells run.
struct GateRequest {
    var builds: [String]
    /// The one path of `run` (nil for a gate, whose paths the plan makes).
    var path: BuildPair?
    var routes: [BuildPair]?
    var scenarios: [Scenario]
    var shard: ShardSpec?
    var runtime: RuntimeVersion
    var runtimes: [RuntimeVersion]?
    var caseID: String
    var jobs: Int
    var timeout: Double
    /// The artifacts folder, absolute.
    var out: String
    var force: Bool
    var archiveInputs: Bool
    var catalog: BuildCatalog

    /// Runs the request and returns its report and inputs (both also written to ``out``).
    func execute(progress: GateProgress) throws -> (report: GateReport, inputs: RunInputs) {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        for id in builds { try BuildPair.validate(buildID: id) }
        let resolved = try GateRun.resolveBuilds(builds, catalog: catalog)
        // A gate's builds go oldest first; `run` takes the one path it is given, a downgrade too.
        if path == nil { try Self.checkOrder(builds, resolved) }
        var inputs = RunInputs(
            builds: builds, path: path, runtime: runtime, caseID: caseID, scenarios: scenarios,
            buildFiles: [:], runnerVersion: UpgradeRunnerVersion.current, shard: shard,
            routes: path == nil ? try GatePlan.recordedRoutes(builds: builds, given: routes) : nil)
        inputs.runtimes = runtimes
        // The plan first: a plan that cannot run (no scenario applies to any path) is bad input
        // found before any executable is hashed or launched.
        _ = try inputs.plan()
        inputs.buildFiles = try GateRun.pin(resolved)
        if archiveInputs {
            inputs.archivedInputs = try ArchivedInputs.plan(for: resolved, pins: inputs.buildFiles)
        }
        let run = GateRun(
            inputs: inputs, outFolder: out, jobs: jobs, force: force, timeout: timeout, progress: progress)
        return (try run.execute(builds: resolved), inputs)
    }

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
}
