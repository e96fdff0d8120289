import FileUtility
import UpgradeContract

/// One unit of work: a scenario on a path (on one runtime of a matrix), run on its own fresh device.
package struct PlanUnit: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The path.
    package var path: BuildPair
    /// The scenario.
    package var scenario: Scenario
    /// The runtime of a runtime-matrix unit; nil on a one-runtime gate (the run's `runtime`).
    package var runtime: RuntimeVersion?

    /// A unit.
    package init(path: BuildPair, scenario: Scenario, runtime: RuntimeVersion? = nil) {
        self.path = path
        self.scenario = scenario
        self.runtime = runtime
    }

    /// The path on its runtime, as cells and findings hold it.
    package var runtimePath: RuntimePath { RuntimePath(runtime: runtime, pair: path) }

    /// The path as reports name it: `v1-to-v2`, or `iOS-15.0/v1-to-v2` in a matrix (see ``RuntimePath``).
    package var pathID: String { runtimePath.id }

    /// The unit's folder under the output folder: `paths/v1-to-v2/upgrade` (`paths/iOS-15.0/v1-to-v2/upgrade`).
    package var folder: String { ArtifactLayout.cellFolder(path: pathID, scenario: scenario) }

    /// `v1-to-v2/upgrade`.
    package var description: String { "\(pathID)/\(scenario)" }

    /// The cells this unit must judge: its scenario's conditions plus the rows of docs/architecture.md's table
    /// that hold everywhere, honest-status (every launch) and no-secret-in-artifacts (every path).
    package var cells: [GateCell] {
        var conditions = scenario.checks
        for everywhere in GateCondition.everywhere where !conditions.contains(everywhere) {
            conditions.append(everywhere)
        }
        let path = runtimePath
        return conditions.map { GateCell(path: path, scenario: scenario, condition: $0) }
    }

    /// Units sort by path id (runtime first in a matrix), then scenario in declaration order (docs/architecture.md's table): the
    /// order shards are dealt in, so a matrix's shards each get cells of every runtime.
    package static func < (lhs: PlanUnit, rhs: PlanUnit) -> Bool { (lhs.pathID, lhs.scenario) < (rhs.pathID, rhs.scenario) }
}

/// What a gate or a run will do: its paths, its scenarios and the sorted (path, scenario) units.
///
/// Which scenarios run on which path: `fresh-install` only on `none-to-X`; on an upgrade path of a
/// gate, `upgrade` when the last hop's first build is the new one's predecessor in the builds list
/// and `skip-version` otherwise (the same checks, named so reports show which paths skip a release);
/// every other scenario on every upgrade path, a multi-hop route (`v1-to-v2-to-v3`) included, but
/// extension-first and interleavings only where the path's new build declares an app extension
/// (run.json's `extensions`; ``Scenario/needsExtension``). A
/// single `run` path takes the scenarios as given, except that fresh-install needs no old build and
/// the others need one.
///
/// A gate's upgrade paths are its routes: the default ones (``defaultRoutes(builds:)``) or those of
/// `gate --routes`, closed under prefixes (``closedRoutes(_:)``), so that the first launch after each
/// hop is explored exactly once, on the route that ends with that hop. A fresh install of each build
/// comes along either way.
package struct GatePlan: Equatable, Sendable {
    /// The paths, sorted by id.
    let paths: [BuildPair]
    /// The scenarios asked for, in declaration order (docs/architecture.md's table).
    let scenarios: [Scenario]
    /// Every unit, sorted; shards slice this list.
    let units: [PlanUnit]

    /// The two-build paths for `builds` (oldest first): every ordered pair old < new in the given
    /// order, plus a fresh install of each build; sorted by id. This is the plan of a run.json that
    /// records no `routes` (every gate before routes existed, and a gate whose default routes are
    /// these pairs: two builds).
    /// - Throws: ``GateError`` for an empty list, a repeated build or a build id that cannot name a path.
    package static func defaultPaths(builds: [String]) throws(GateError) -> [BuildPair] {
        if builds.isEmpty { throw .invalidValue(field: .builds, value: "", reason: "names no build") }
        for (index, id) in builds.enumerated() {
            try BuildPair.validate(buildID: id)
            if builds[..<index].contains(id) {
                throw .invalidValue(field: .builds, value: builds.joined(separator: ","), reason: "names build \"\(id)\" twice")
            }
        }
        var paths = builds.map { BuildPair(old: nil, new: $0) }
        for (i, old) in builds.enumerated() {
            for new in builds[(i + 1)...] { paths.append(BuildPair(old: old, new: new)) }
        }
        return paths.sorted()
    }

    /// The default routes of a gate over `builds` (oldest first): every direct jump old < new (the
    /// two-build paths), plus the chain through every build in order, closed under prefixes; sorted
    /// by id. For v1,v2,v3: `v1-to-v2`, `v1-to-v2-to-v3`, `v1-to-v3`, `v2-to-v3`. No fresh install.
    /// - Throws: ``GateError`` as ``defaultPaths(builds:)``.
    static func defaultRoutes(builds: [String]) throws(GateError) -> [BuildPair] {
        let pairs = try defaultPaths(builds: builds).filter { !$0.isFreshInstall }
        guard builds.count >= 2 else { return pairs }
        return closedRoutes(pairs + [BuildPair(route: builds)])
    }

    /// `routes` with every prefix of two or more builds added, each once, sorted by id.
    static func closedRoutes(_ routes: [BuildPair]) -> [BuildPair] {
        Array(Set(routes.flatMap(\.prefixes))).sorted()
    }

    /// The routes a gate over `builds` records in run.json: `given` (from `--routes`) closed under
    /// prefixes, or else the default routes when they hold a multi-hop route; nil when the default
    /// routes are the two-build paths (two builds), which is what a run.json without `routes` means,
    /// so such a gate's run.json keeps its bytes.
    package static func recordedRoutes(builds: [String], given: [BuildPair]?) throws(GateError) -> [BuildPair]? {
        if let given { return closedRoutes(given) }
        let routes = try defaultRoutes(builds: builds)
        return routes.contains(where: \.isMultiHop) ? routes : nil
    }

    /// Checks one route against the gate's `builds` (oldest first).
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming `routes` and the route, for a
    ///   route of fewer than two builds, one that names a build not in `builds`, repeats a build or
    ///   goes against their order.
    static func validate(route: BuildPair, builds: [String]) throws(GateError) {
        let text = route.builds.joined(separator: ">")
        func bad(_ reason: String) -> GateError { .invalidValue(field: .routes, value: text, reason: reason) }
        if route.isFreshInstall || route.builds.count < 2 { throw bad("names fewer than two builds") }
        for (index, id) in route.builds.enumerated() {
            try BuildPair.validate(buildID: id)
            if route.builds[..<index].contains(id) { throw bad("names build \"\(id)\" twice") }
            guard builds.contains(id) else { throw bad("names unknown build \"\(id)\"") }
        }
        let positions = route.builds.map { builds.firstIndex(of: $0)! }
        for (a, b) in zip(positions, positions.dropFirst()) where a > b {
            throw bad("lists \(builds[a]) before \(builds[b]): a route goes oldest first, by build number")
        }
    }

    /// Whether `scenario` runs on `path`: the one place that decides it (the gate's plan and the
    /// `mutants` command both ask here). fresh-install only on a fresh install; on an upgrade path,
    /// `upgrade` when its last hop joins adjacent builds of the list and `skip-version` otherwise
    /// (the same checks, named so that reports show which paths skip a release), every other
    /// scenario always.
    /// reinstall-self only on the fresh install of `release` (nil: any fresh install).
    /// extension-first and interleavings (``Scenario/needsExtension``) only where `extensions` (build
    /// id to its extensions' names, run.json's `extensions`) lists the path's new build; nil: a
    /// run.json written before the record, where they ran on every path.
    /// second-device (``Scenario/needsSynchronizable``) only where `synchronizable` (run.json's) lists
    /// the build the path's last hop starts at, the release the second device runs; nil: every path.
    package static func applies(
        _ scenario: Scenario, to path: BuildPair, lastHopAdjacent: Bool, release: String? = nil,
        extensions: [String: [String]]? = nil, synchronizable: [String]? = nil
    ) -> Bool {
        if !Self.fits(scenario, path, extensions: extensions, synchronizable: synchronizable) { return false }
        guard !path.isFreshInstall else {
            return scenario.isFreshInstall && (!scenario.releaseOnly || release == nil || path.new == release)
        }
        if scenario.isFreshInstall { return false }
        switch scenario {
        case .upgrade: return lastHopAdjacent
        case .skipVersion: return !lastHopAdjacent
        default: return true
        }
    }

    /// The gate over `builds` (oldest first) and `scenarios`, on `routes` (nil: the two-build paths
    /// of ``defaultPaths(builds:)``) plus a fresh install of each build.
    /// - Throws: ``GateError`` for bad build ids or routes, or when no scenario applies to any path.
    /// `release`: the release under test, the only build reinstall-self runs for (nil: the newest).
    /// `extensions`: the builds that declare app extensions (run.json's `extensions`; ``applies(_:to:lastHopAdjacent:release:extensions:)``).
    init(
        builds: [String], routes: [BuildPair]? = nil, scenarios: [Scenario], release: String? = nil,
        extensions: [String: [String]]? = nil, synchronizable: [String]? = nil
    ) throws(GateError) {
        var paths = try Self.defaultPaths(builds: builds)
        if let routes {
            for route in routes { try Self.validate(route: route, builds: builds) }
            paths = (paths.filter(\.isFreshInstall) + Self.closedRoutes(routes)).sorted()
        }
        let position = Dictionary(uniqueKeysWithValues: builds.enumerated().map { ($1, $0) })
        var units: [PlanUnit] = []
        for path in paths {
            let adjacent = path.previous.map { position[path.new]! - position[$0]! == 1 } ?? false
            for scenario in Set(scenarios) {
                let applies = Self.applies(
                    scenario, to: path, lastHopAdjacent: adjacent, release: release ?? builds.last, extensions: extensions,
                    synchronizable: synchronizable)
                if applies { units.append(PlanUnit(path: path, scenario: scenario)) }
            }
        }
        try self.init(paths: paths, scenarios: scenarios, units: units)
    }

    /// A single path (`run --from OLD --to NEW`, or a fresh install when `path.old` is nil).
    /// - Throws: ``GateError/nothingToRun(_:)`` when a scenario does not fit the path.
    /// `extensions` as the gate's: a scenario that needs an app extension the new build does not declare
    /// is left out.
    init(
        path: BuildPair, scenarios: [Scenario], extensions: [String: [String]]? = nil, synchronizable: [String]? = nil
    ) throws(GateError) {
        for id in path.builds { try BuildPair.validate(buildID: id) }
        for scenario in scenarios where scenario.isFreshInstall != path.isFreshInstall {
            throw .nothingToRun(
                path.isFreshInstall
                    ? "scenario \(scenario) needs an old build (--from)"
                    : "scenario \(scenario) runs on a fresh install, without --from")
        }
        let units = scenarios.filter { scenario in
            Self.fits(scenario, path, extensions: extensions, synchronizable: synchronizable)
        }.map { PlanUnit(path: path, scenario: $0) }
        try self.init(paths: [path], scenarios: scenarios, units: units)
    }

    /// Whether what the path's builds declare lets `scenario` run on it: an app extension of the new
    /// build (``Scenario/needsExtension``), a synchronizable secret of the build the last hop starts at
    /// (``Scenario/needsSynchronizable``). Nil records (a run.json before them) let every path.
    package static func fits(
        _ scenario: Scenario, _ path: BuildPair, extensions: [String: [String]]?, synchronizable: [String]?
    ) -> Bool {
        if scenario.needsExtension, let extensions, extensions[path.new]?.isEmpty ?? true { return false }
        if scenario.needsSynchronizable, let synchronizable, !(path.previous.map(synchronizable.contains) ?? false) {
            return false
        }
        return true
    }

    /// The plan that `inputs` describe: a single path when `inputs.path` is set, else the gate over
    /// `inputs.builds` on `inputs.routes`; every unit once per runtime when `inputs.runtimes` names a matrix.
    init(inputs: RunInputs) throws(GateError) {
        let base: GatePlan
        if let path = inputs.path {
            base = try GatePlan(
                path: path, scenarios: inputs.scenarios, extensions: inputs.extensions, synchronizable: inputs.synchronizable)
        } else {
            base = try GatePlan(
                builds: inputs.builds, routes: inputs.routes, scenarios: inputs.scenarios, release: inputs.releaseUnderTest,
                extensions: inputs.extensions, synchronizable: inputs.synchronizable)
        }
        guard let runtimes = inputs.runtimes else {
            self = base
            return
        }
        let units = runtimes.flatMap { runtime in
            base.units.map { PlanUnit(path: $0.path, scenario: $0.scenario, runtime: runtime) }
        }
        try self.init(paths: base.paths, scenarios: base.scenarios, units: units)
    }

    private init(paths: [BuildPair], scenarios: [Scenario], units: [PlanUnit]) throws(GateError) {
        if scenarios.isEmpty { throw .invalidValue(field: .scenarios, value: "", reason: "names no scenario") }
        if units.isEmpty {
            throw .nothingToRun("no scenario of \(scenarios.sorted().map(\.rawValue).joined(separator: ",")) applies to any path")
        }
        self.paths = paths.sorted()
        self.scenarios = Array(Set(scenarios)).sorted()
        self.units = Array(Set(units)).sorted()
    }

    /// The units of `shard` (every unit when nil), in order.
    package func units(in shard: ShardSpec?) -> [PlanUnit] {
        guard let shard else { return units }
        return units.enumerated().filter { shard.contains(offset: $0.offset) }.map(\.element)
    }

    /// The cells the engine must see a finding for, for `shard` (every cell when nil).
    package func expectedCells(in shard: ShardSpec?) -> [GateCell] {
        units(in: shard).flatMap(\.cells).sorted()
    }
}
