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
    ///   - baselines: for each deciding cell that failed, what its baseline (the old build in the
    ///     new build's place, or the previous release over itself) found on the same condition: a
    ///     FAIL of the cell is pre-existing only when the baseline has a FAIL with the same
    ///     ``FindingKey``; it is reported beside that finding, and decides only under `strict`.
    ///     Every other FAIL of the cell decides.
    ///   - strict: whether a pre-existing FAIL, and a hygiene warning (``GateFinding/warning``),
    ///     decide as any other FAIL (`--strict`). Without it a warning is judged PASS and listed.
    ///   - policies: the builds' declared policies, reported as they are.
    package static func evaluate(
        expected: [GateCell], findings: [GateFinding], incomplete: [String] = [], release: String? = nil,
        baselines: [GateCell: Baseline] = [:], strict: Bool = false, policies: [GateReport.Policy] = []
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
        // Each deciding cell's FAILs its baseline has too (same condition and key), beside the baseline's finding.
        var matched: [GateCell: [GateReport.Excused]] = [:]
        for (cell, found) in byCell {
            let sorted = found.sorted()
            // The findings that judged the cell; a cell with none but not-judged ones is not judged.
            let judged = sorted.filter { $0.notJudged != true }
            let excused = baselines[cell].map { excusals(sorted, baseline: $0) } ?? []
            if !excused.isEmpty { matched[cell] = excused }
            let own = judged.filter { finding in !excused.contains { $0.finding == finding } }
            let verdict =
                sorted.isEmpty ? .unknown : judged.isEmpty ? .pass : Verdict.combine(judged.map(\.verdict))
            // A cell whose FAILs are in part the old release's gives the release's own (FAILs, else
            // UNKNOWNs) as its reasons; one whose every FAIL is, those FAILs.
            let ownVerdict = own.isEmpty ? Verdict.pass : Verdict.combine(own.map(\.verdict))
            let (shown, shownVerdict) = !strict && !excused.isEmpty && ownVerdict != .pass ? (own, ownVerdict) : (judged, verdict)
            let reasons =
                sorted.isEmpty
                ? [noFindingReason] : shown.filter { $0.verdict == shownVerdict && shownVerdict != .pass }.map(\.message)
            var result = GateReport.CellResult(condition: cell.condition, verdict: verdict, reasons: reasons, findings: sorted)
            if judged.isEmpty, let first = sorted.first { result.notJudged = first.message }
            cellResults[cell] = result
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

        // Shipped history: the paths that end at a build older than the release under test.
        let history = release.map { release in runtimePaths.filter { !decides($0, release: release) } } ?? []
        // Pre-existing FAILs of cells that failed here (a baseline is judged only for a FAIL).
        let shown = matched.filter { cellResults[$0.key]?.verdict == .fail && !history.contains($0.key.runtimePath) }
        var deciding = cellResults.filter { !history.contains($0.key.runtimePath) }
        // A pre-existing FAIL is the old release's: it decides only with `strict`. The cell's other
        // FAILs are the release's own, and decide.
        var stillDeciding: Set<GateCell> = []
        for (cell, excused) in shown where deciding[cell] != nil {
            let rest = deciding[cell]!.findings.filter { finding in
                finding.notJudged != true && !excused.contains { $0.finding == finding }
            }
            let verdict = rest.isEmpty ? .pass : Verdict.combine(rest.map(\.verdict))
            // What is left decides: a FAIL or UNKNOWN of the release's own.
            if verdict != .pass { stillDeciding.insert(cell) }
            if !strict {
                deciding[cell]!.verdict = verdict
                deciding[cell]!.reasons = rest.filter { $0.verdict == verdict && verdict != .pass }.map(\.message)
            }
        }

        let runSorted = runFindings.sorted()
        var conditions: [GateReport.ConditionResult] = []
        var notJudged: [GateReport.NotJudged] = []
        let checked = Set(deciding.keys.map(\.condition)).union(runSorted.map(\.condition))
        for condition in checked.sorted() {
            let cells = deciding.filter { $0.key.condition == condition }
            let unjudged = cells.filter { $0.value.notJudged != nil }
            let verdicts =
                cells.filter { $0.value.notJudged == nil }.map(\.value.verdict)
                + runSorted.filter { $0.condition == condition }.map(\.verdict)
            // No judged cell: "not judged", never PASS, with the checkers' reasons.
            guard !verdicts.isEmpty else {
                let reasons = Set(unjudged.values.compactMap(\.notJudged).map(notJudgedReason)).sorted()
                notJudged.append(.init(condition: condition, cells: unjudged.count, reasons: reasons))
                continue
            }
            conditions.append(
                .init(
                    condition: condition, verdict: Verdict.combine(verdicts),
                    passed: verdicts.filter { $0 == .pass }.count,
                    failed: verdicts.filter { $0 == .fail }.count,
                    unknown: verdicts.filter { $0 == .unknown }.count,
                    notJudged: unjudged.isEmpty ? nil : unjudged.count))
        }

        let incompleteSorted = Array(Set(incomplete)).sorted()
        // A part of a gate (a shard) that holds shipped history alone decides nothing: it passes.
        var verdict = conditions.isEmpty && !cellResults.isEmpty ? .pass : Verdict.combine(conditions.map(\.verdict))
        if verdict == .pass && !incompleteSorted.isEmpty { verdict = .unknown }
        // Deciding cells, and not one judged: nothing was proven, so the gate cannot pass.
        let nothingJudged = conditions.isEmpty && !notJudged.isEmpty
        if nothingJudged && verdict == .pass { verdict = .unknown }

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
        if nothingJudged {
            unknownReasons.append(
                "no condition was judged: "
                    + notJudged.map { "\($0.condition) (\($0.reasons.joined(separator: "; ")))" }.joined(separator: ", "))
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
                ? nil
                : shown.keys.sorted().map { cell in
                    GateReport.PreExisting(
                        cell: cell.description, shownBy: baselines[cell]!.shownBy, findings: shown[cell]!,
                        alsoDeciding: stillDeciding.contains(cell) ? true : nil)
                },
            strict: strict ? true : nil,
            warnings: warnings(warned, deciding: { !history.contains($0.runtimePath) }),
            policies: policies.isEmpty ? nil : policies.sorted(), notJudged: notJudged.isEmpty ? nil : notJudged)
    }

    /// Why a cell was not judged, without the `not judged: ` its finding's message starts with.
    package static func notJudgedReason(_ message: String) -> String {
        message.hasPrefix("not judged: ") ? String(message.dropFirst("not judged: ".count)) : message
    }

    /// What a cell's baseline found on the cell's condition: the cell it ran as (`v1-to-v1/upgrade`,
    /// `none-to-v2/reinstall-self`) and its findings there.
    package struct Baseline: Sendable, Equatable {
        package var shownBy: String
        package var findings: [GateFinding]
        package init(shownBy: String, findings: [GateFinding]) {
            self.shownBy = shownBy
            self.findings = findings
        }
    }

    /// The FAILs among `findings` (a warning judged a FAIL under `--strict` too) that `baseline` has
    /// as well: same condition and ``FindingKey``, each with the first baseline FAIL that matches.
    /// A finding without a key matches nothing; a baseline's hygiene warning is no FAIL of the old release.
    static func excusals(_ findings: [GateFinding], baseline: Baseline) -> [GateReport.Excused] {
        let failed = baseline.findings.filter { $0.verdict == .fail && $0.warning != true && $0.key != nil }.sorted()
        return findings.compactMap { finding in
            guard finding.verdict == .fail, let key = finding.key,
                let match = failed.first(where: { $0.condition == finding.condition && $0.key == key })
            else { return nil }
            return GateReport.Excused(finding: finding, baseline: match)
        }
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
