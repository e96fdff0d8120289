import GateModel

/// A failure the old release already had. For each cell of a deciding path that FAILs, the gate
/// runs the same scenario with the build installed before the new one in the new one's place (its
/// own install, relaunch, reinstall, crash points ...) and judges the same conditions there. A
/// condition that fails there too is `pre-existing`: reported in gate.json (`preExisting`), summary.md
/// and junit.xml (as properties), and deciding the verdict only under `--strict`.
///
/// The cell the old build stands in: `v1-to-v3` becomes `v1-to-v1` (v1 installed over its own
/// install), a route `v1-to-v2-to-v3` becomes `v1-to-v2-to-v2`; a fresh install has no old build.
/// Its artifacts go beside the plan's (`baseline/paths/v1-to-v1/<scenario>/`); its findings decide nothing.
enum PreExisting {
    /// The unit in which the old build stands in the new build's place, or nil (a fresh install).
    static func baseline(of unit: PlanUnit) -> PlanUnit? {
        guard let old = unit.path.old, let previous = unit.path.previous, previous != unit.path.new else { return nil }
        return PlanUnit(path: BuildPair(old: old, via: unit.path.via, new: previous), scenario: unit.scenario, runtime: unit.runtime)
    }

    /// The units to run, each with the conditions its original cell failed: the deciding units
    /// (paths that end at `release`) with a FAIL among `findings` (the leak scan is judged over the
    /// whole folder, not per cell, and is left out).
    static func baselines(
        units: [PlanUnit], findings: [[GateFinding]], release: String
    ) -> [(original: PlanUnit, baseline: PlanUnit, failed: Set<GateCondition>)] {
        zip(units, findings).compactMap { unit, found in
            guard unit.path.new == release, let baseline = baseline(of: unit) else { return nil }
            let failed = Set(found.filter { $0.verdict == .fail && $0.warning != true && $0.condition != .noSecretInArtifacts }.map(\.condition))
            return failed.isEmpty ? nil : (unit, baseline, failed)
        }
    }

    /// The original cells whose condition the baseline's findings fail too, each with the baseline cell.
    static func judged(original: PlanUnit, baseline: PlanUnit, failed: Set<GateCondition>, findings: [GateFinding]) -> [GateCell: String] {
        var cells: [GateCell: String] = [:]
        // A hygiene warning is not a FAIL of the old release (it decides only under --strict, and
        // then the original's own warning does).
        let judged = findings.filter { $0.warning != true }
        for condition in failed where Verdict.combine(judged.filter { $0.condition == condition }.map(\.verdict)) == .fail {
            cells[GateCell(path: original.runtimePath, scenario: original.scenario, condition: condition)] = baseline.description
        }
        return cells
    }
}
