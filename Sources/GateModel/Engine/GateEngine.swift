import FileUtility
import UpgradeContract

/// The engine that turns expected cells and checkers' findings into a ``GateReport``.
///
/// It fails closed: a cell with no finding is UNKNOWN ("did not run or did not finish"); any FAIL
/// makes every verdict above it FAIL; otherwise any UNKNOWN, or any reason in `incomplete`, makes
/// the overall verdict UNKNOWN. A finding for a cell that was not expected still counts, so a
/// checker's FAIL can never be dropped by a plan that forgot its cell.
package enum GateEngine {
    /// The reason a cell with no finding gives.
    static let noFindingReason = "no finding: the scenario did not run or did not finish"

    /// Judges the gate.
    /// - Parameters:
    ///   - expected: the cells the plan expects a verdict for.
    ///   - findings: the checkers' findings, in any order.
    ///   - incomplete: reasons the run as a whole is incomplete (missing shard, interrupted run).
    ///   - release: the release under test (``RunInputs/releaseUnderTest``): only cells on paths that
    ///     end at it decide the verdict and the conditions' table; the others are shipped history,
    ///     reported with their own verdicts (``GateReport/history``). Nil: every path decides.
    ///   - preExisting: the deciding cells whose FAIL the old release already had (the old build in
    ///     the new build's place fails the same condition, ``PreExisting``), each with the cell that
    ///     showed it: reported, and not deciding unless `strict`.
    ///   - strict: whether a pre-existing FAIL, and a hygiene warning (``GateFinding/warning``),
    ///     decide as any other FAIL (`--strict`). Without it a warning is judged PASS and listed.
    ///   - policies: the builds' declared policies, reported as they are.
    package static func evaluate(
        expected: [GateCell], findings: [GateFinding], incomplete: [String] = [], release: String? = nil,
        preExisting: [GateCell: String] = [:], strict: Bool = false, policies: [GateReport.Policy] = []
    ) -> GateReport {
        var byCell: [GateCell: [GateFinding]] = [:]
        for cell in expected { byCell[cell, default: []] = [] }
        var runFindings: [GateFinding] = []
        var warned: [(cell: GateCell, message: String)] = []
        for var finding in findings {
            if finding.warning == true, !strict, let cell = finding.cell {
                finding.verdict = .pass
                warned.append((cell, finding.message))
            }
            if let cell = finding.cell { byCell[cell, default: []].append(finding) } else { runFindings.append(finding) }
        }

        var cellResults: [GateCell: GateReport.CellResult] = [:]
        for (cell, found) in byCell {
            let sorted = found.sorted()
            let verdict = sorted.isEmpty ? .unknown : Verdict.combine(sorted.map(\.verdict))
            let reasons =
                sorted.isEmpty ? [noFindingReason] : sorted.filter { $0.verdict == verdict && verdict != .pass }.map(\.message)
            cellResults[cell] = .init(condition: cell.condition, verdict: verdict, reasons: reasons, findings: sorted)
        }

        let runtimePaths = Set(cellResults.keys.map(\.runtimePath)).sorted()
        var paths: [GateReport.PathResult] = []
        for path in runtimePaths {
            let cells = cellResults.filter { $0.key.runtimePath == path }
            var scenarios: [GateReport.ScenarioResult] = []
            for scenario in Set(cells.keys.map(\.scenario)).sorted() {
                let results = cells.filter { $0.key.scenario == scenario }.sorted { $0.key < $1.key }.map(\.value)
                scenarios.append(.init(scenario: scenario, verdict: Verdict.combine(results.map(\.verdict)), conditions: results))
            }
            paths.append(.init(path: path, verdict: Verdict.combine(scenarios.map(\.verdict)), scenarios: scenarios))
        }

        // Pre-existing cells that failed here (a baseline is judged only for a FAIL; an entry for another is no finding).
        let shown = preExisting.filter { cellResults[$0.key]?.verdict == .fail }
        // Shipped history: the paths that end at a build older than the release under test.
        let history = release.map { release in runtimePaths.filter { !decides($0, release: release) } } ?? []
        // A pre-existing FAIL is the old release's: it decides only with `strict`.
        let excused = strict ? [:] : shown
        var deciding = cellResults.filter { !history.contains($0.key.runtimePath) }
        for cell in excused.keys where deciding[cell] != nil {
            deciding[cell]!.verdict = .pass
            deciding[cell]!.reasons = []
        }

        let runSorted = runFindings.sorted()
        var conditions: [GateReport.ConditionResult] = []
        let checked = Set(deciding.keys.map(\.condition)).union(runSorted.map(\.condition))
        for condition in checked.sorted() {
            let verdicts =
                deciding.filter { $0.key.condition == condition }.map(\.value.verdict)
                + runSorted.filter { $0.condition == condition }.map(\.verdict)
            conditions.append(
                .init(
                    condition: condition, verdict: Verdict.combine(verdicts),
                    passed: verdicts.filter { $0 == .pass }.count,
                    failed: verdicts.filter { $0 == .fail }.count,
                    unknown: verdicts.filter { $0 == .unknown }.count))
        }

        let incompleteSorted = Array(Set(incomplete)).sorted()
        // A part of a gate (a shard) that holds shipped history alone decides nothing: it passes.
        var verdict = conditions.isEmpty && !cellResults.isEmpty ? .pass : Verdict.combine(conditions.map(\.verdict))
        if verdict == .pass && !incompleteSorted.isEmpty { verdict = .unknown }

        var failReasons: [String] = []
        var unknownReasons: [String] = []
        for cell in deciding.keys.sorted() {
            let result = deciding[cell]!
            for reason in result.reasons {
                let line = "\(cell): \(reason)"
                if result.verdict == .fail {
                    failReasons.append(line)
                } else if result.verdict == .unknown {
                    unknownReasons.append(line)
                }
            }
        }
        for finding in runSorted where finding.verdict != .pass {
            let line = "\(finding.condition): \(finding.message)"
            if finding.verdict == .fail { failReasons.append(line) } else { unknownReasons.append(line) }
        }

        return GateReport(
            verdict: verdict, incomplete: incompleteSorted, conditions: conditions,
            notChecked: GateCondition.allCases.filter { !checked.contains($0) },
            paths: paths, runFindings: runSorted,
            reasons: failReasons + incompleteSorted + unknownReasons, runtimeVerdicts: runtimeResults(paths),
            release: release, history: history.isEmpty ? nil : history.map(\.id),
            preExisting: shown.isEmpty
                ? nil : shown.keys.sorted().map { GateReport.PreExisting(cell: $0.description, shownBy: shown[$0]!) },
            strict: strict ? true : nil,
            warnings: warnings(warned, deciding: { !history.contains($0.runtimePath) }),
            policies: policies.isEmpty ? nil : policies.sorted())
    }

    /// `cell: message` for each warning on a deciding cell, sorted; nil for none.
    static func warnings(_ warned: [(cell: GateCell, message: String)], deciding: (GateCell) -> Bool) -> [String]? {
        let lines = Set(warned.filter { deciding($0.cell) }.map { "\($0.cell): \($0.message)" }).sorted()
        return lines.isEmpty ? nil : lines
    }

    /// Whether `path` (a runtime matrix's `iOS-15.0/v1-to-v2` too) ends at `release`.
    static func decides(_ path: RuntimePath, release: String) -> Bool { path.pair.new == release }

    /// The verdict per runtime when the paths are a runtime matrix's (``RuntimePath``), else nil.
    static func runtimeResults(_ paths: [GateReport.PathResult]) -> [GateReport.RuntimeResult]? {
        var byRuntime: [RuntimeVersion: [GateReport.PathResult]] = [:]
        for path in paths {
            guard let runtime = path.runtimePath.runtime else { continue }
            byRuntime[runtime, default: []].append(path)
        }
        guard !byRuntime.isEmpty else { return nil }
        return byRuntime.keys.sorted().map { runtime in
            let cases = byRuntime[runtime]!.flatMap(\.scenarios).map(\.verdict)
            return GateReport.RuntimeResult(
                runtime: runtime, verdict: Verdict.combine(byRuntime[runtime]!.map(\.verdict)),
                passed: cases.count { $0 == .pass }, failed: cases.count { $0 == .fail }, unknown: cases.count { $0 == .unknown })
        }
    }
}
