import GateModel

/// A failure the old release already had, finding by finding. For each cell of a deciding path that
/// FAILs, the gate runs its baseline and judges the same conditions there; a FAIL of the release is
/// pre-existing only when the baseline has a FAIL with the same condition and ``FindingKey`` (the
/// same secret or item, store and kind of loss). Every other FAIL decides (``GateEngine``). Pre-existing
/// findings are reported in gate.json (`preExisting`, each beside the baseline finding that excused
/// it), summary.md and junit.xml (as properties), and decide only under `--strict`.
///
/// The baseline of an upgrade path is the old build in the new one's place: `v1-to-v3` becomes
/// `v1-to-v1` (v1 installed over its own install), a route `v1-to-v2-to-v3` becomes
/// `v1-to-v2-to-v2`. The baseline of a fresh install's path, where the release is judged alone
/// (reinstall-self runs there only), is the previous release over itself: `none-to-v3` becomes
/// `none-to-v2`; the oldest build has none. Its artifacts go beside the plan's
/// (`baseline/paths/v1-to-v1/<scenario>/`); its findings decide nothing.
enum PreExisting {
    /// The unit that stands for the old release in `unit`'s place, or nil (the oldest build's fresh install).
    /// - Parameter builds: the gate's builds, oldest first: a fresh install's baseline is the build before `unit`'s.
    static func baseline(of unit: PlanUnit, builds: [String]) -> PlanUnit? {
        guard let old = unit.path.old else {
            guard let index = builds.firstIndex(of: unit.path.new), index > 0 else { return nil }
            return PlanUnit(path: BuildPair(old: nil, new: builds[index - 1]), scenario: unit.scenario, runtime: unit.runtime)
        }
        guard let previous = unit.path.previous, previous != unit.path.new else { return nil }
        return PlanUnit(
            path: BuildPair(old: old, via: unit.path.via, new: previous), scenario: unit.scenario, runtime: unit.runtime)
    }

    /// The units to run, each with its original: the deciding units (paths that end at `release`)
    /// with a FAIL among `findings` (the leak scan is judged over the whole folder, not per cell,
    /// and is left out; so is a hygiene warning, which has no baseline).
    static func baselines(
        units: [PlanUnit], findings: [[GateFinding]], release: String, builds: [String]
    ) -> [(original: PlanUnit, baseline: PlanUnit)] {
        zip(units, findings).compactMap { unit, found in
            guard unit.path.new == release, let baseline = baseline(of: unit, builds: builds) else { return nil }
            let failed = found.contains { $0.verdict == .fail && $0.warning != true && $0.condition != .noSecretInArtifacts }
            return failed ? (unit, baseline) : nil
        }
    }

    /// What the baseline found on each condition of the original unit: its findings there, for the
    /// engine to match with the original cell's FAILs one by one (``GateEngine/excusals(_:baseline:)``).
    static func judged(original: PlanUnit, baseline: PlanUnit, findings: [GateFinding]) -> [GateCell: GateEngine.Baseline] {
        var cells: [GateCell: GateEngine.Baseline] = [:]
        for cell in original.cells where cell.condition != .noSecretInArtifacts {
            let found = findings.filter { $0.condition == cell.condition }
            cells[cell] = GateEngine.Baseline(shownBy: baseline.description, findings: found)
        }
        return cells
    }

    /// How progress names a baseline cell: `v1-to-v1/upgrade (the old build in v3's place)`.
    static func describe(_ baseline: PlanUnit, original: PlanUnit) -> String {
        original.path.old == nil
            ? "\(baseline) (the previous release over itself, for \(original.path.new))"
            : "\(baseline) (the old build in \(original.path.new)'s place)"
    }
}
