import Foundation

/// Writes `summary.md`: a verdict table fit for a CI step summary (`$GITHUB_STEP_SUMMARY`).
///
/// The overall verdict line first, then rows of paths by columns of scenarios (`—` where a
/// scenario does not run on a path), a table of conditions, and every failure and unknown with its
/// reason, and the command that reruns each of those cells alone. Built only from findings, which
/// hold names, never values.
///
/// The terminal flavour is the same text without HTML entities: Markdown renderers need `&lt;` for
/// a `<` in a table, a terminal shows it as typed.
enum SummaryWriter {
    enum Flavor {
        case markdown, terminal
    }

    /// `out`: the run's folder, under which each rerun line writes (``rerunCommands(report:inputs:out:)``).
    static func render(report: GateReport, inputs: RunInputs, out: String, flavor: Flavor = .markdown) -> String {
        func text(_ raw: String) -> String { SummaryWriter.text(raw, flavor: flavor) }
        var lines: [String] = []
        lines.append("## Upgrade gate: \(mark(report.verdict))")
        lines.append("")
        var scope = "case `\(code(inputs.caseID))`, \(inputs.runtimeText), builds \(inputs.builds.joined(separator: ", "))"
        if let shard = inputs.shard { scope += ", shard \(shard)" }
        lines.append("Inputs `\(inputs.digest.prefix(19))…` (\(scope)).")
        if let release = report.release {
            var line = "Release under test: `\(code(release))`; only the paths that end at it decide the verdict."
            if let history = report.history {
                line += " Shipped history, reported and not deciding: " + history.map { "`\($0)`" }.joined(separator: ", ") + "."
            }
            lines.append(line)
        }
        let cases = report.paths.flatMap(\.scenarios)
        lines.append(
            "\(report.paths.count) paths, \(cases.count) path × scenario cases: "
                + "\(cases.count { $0.verdict == .pass }) passed, \(cases.count { $0.verdict == .fail }) failed, "
                + "\(cases.count { $0.verdict == .unknown }) unknown.")
        lines.append("")
        if let runtimes = report.runtimeVerdicts {
            lines.append("| runtime | verdict | passed | failed | unknown |")
            lines.append("| --- | --- | ---: | ---: | ---: |")
            for result in runtimes {
                lines.append(
                    "| \(result.runtime) | \(mark(result.verdict)) | \(result.passed) | \(result.failed) | \(result.unknown) |")
            }
            lines.append("")
        }

        let scenarios = report.scenarios
        // Marks beyond PASS, FAIL and UNKNOWN that this summary uses, for its legend.
        var drawn: Set<Mark> = []
        if !report.paths.isEmpty {
            lines.append("| path | " + scenarios.map(\.rawValue).joined(separator: " | ") + " | verdict |")
            lines.append("| --- |" + String(repeating: " :---: |", count: scenarios.count) + " --- |")
            for path in report.paths {
                let cells = scenarios.map { scenario in
                    path.scenarios.first { $0.scenario == scenario }.map { result in
                        let shown = Mark(result, path: path.path, report: report)
                        drawn.insert(shown)
                        return shown.text
                    } ?? "—"
                }
                let verdict = Mark(path, report: report)
                drawn.insert(verdict)
                lines.append("| `\(path.path)` | " + cells.joined(separator: " | ") + " | \(verdict.text) |")
            }
            lines.append("")
        }

        if !report.conditions.isEmpty || report.notJudged != nil {
            lines.append("| condition | verdict | passed | failed | unknown |")
            lines.append("| --- | --- | ---: | ---: | ---: |")
            var rows: [(GateCondition, String)] = report.conditions.map { result in
                (
                    result.condition,
                    "| `\(result.condition)` | \(mark(result.verdict)) | \(result.passed) | \(result.failed) | \(result.unknown) |"
                )
            }
            for entry in report.notJudged ?? [] {
                drawn.insert(.notJudged)
                rows.append((entry.condition, "| `\(entry.condition)` | \(Mark.notJudged.text) | — | — | — |"))
            }
            lines.append(contentsOf: rows.sorted { $0.0 < $1.0 }.map(\.1))
            lines.append("")
        }
        var unjudged: [String] = (report.notJudged ?? []).map { entry in
            "- `\(entry.condition)`: none of its \(entry.cells) cell(s) judged: "
                + entry.reasons.map(text).joined(separator: "; ")
        }
        for result in report.conditions {
            guard let count = result.notJudged else { continue }
            drawn.insert(.notJudged)
            let reasons = Set(report.deciding(result.condition).compactMap(\.notJudged).map(GateEngine.notJudgedReason)).sorted()
            unjudged.append(
                "- `\(result.condition)`: \(count) of its cells not judged (counted in none of the columns): "
                    + reasons.map(text).joined(separator: "; "))
        }
        if !unjudged.isEmpty {
            lines.append("Not judged (neither passed nor failed):")
            lines.append("")
            lines.append(contentsOf: unjudged)
            lines.append("")
        }
        if drawn.contains(where: \.needsLegend) {
            lines.append(Mark.legend(strict: report.strict == true))
            lines.append("")
        }
        if !report.notChecked.isEmpty {
            lines.append(
                "Not checked (no selected scenario checks them): " + report.notChecked.map { "`\($0)`" }.joined(separator: ", ")
                    + ".")
            lines.append("")
        }

        section(
            "Exploration", header: "| path | scenario | explored | failed |\n| --- | --- | --- | ---: |",
            rows: exploration(report, flavor: flavor), into: &lines)
        section(
            "Inputs",
            header:
                "| path | cells | launches | clocks of the first new launch | seed variants |\n| --- | ---: | ---: | --- | --- |",
            rows: inputsRows(report, flavor: flavor), into: &lines)

        var problems: [String] = []
        for problem in report.problems {
            let head = "\(mark(problem.verdict)) `\(problem.path)` \(problem.scenario)"
            for reason in problem.reasons { problems.append("- \(head): " + text(reason)) }
        }
        for finding in report.runFindings where finding.verdict != .pass {
            problems.append("- \(mark(finding.verdict)) whole run: \(finding.condition): " + text(finding.message))
        }
        for reason in report.incomplete { problems.append("- \(mark(.unknown)) incomplete: " + text(reason)) }
        if !problems.isEmpty {
            lines.append("### Failures and unknowns")
            lines.append("")
            lines.append(contentsOf: problems)
            lines.append("")
        }
        let failing = report.conditions.filter { $0.verdict == .fail }.map(\.condition)
        if !failing.isEmpty {
            lines.append("### What teams usually do")
            lines.append("")
            for condition in failing { lines.append("- `\(condition.rawValue)`: " + text(condition.remedy)) }
            lines.append("")
        }
        let preExisting = (report.preExisting ?? []).flatMap { entry -> [String] in
            guard let pairs = entry.findings, !pairs.isEmpty else {
                // A document from before findings were matched one by one names the cell only.
                return report.reasons(ofCell: entry.cell).map {
                    "- \(Mark.preExisting.text) `\(entry.cell)` (\(entry.shownBy) fails it too): " + text($0)
                }
            }
            return pairs.map { pair in
                "- \(Mark.preExisting.text) `\(entry.cell)`: " + text(pair.finding.message)
                    + " | `\(entry.shownBy)` has the same finding: " + text(pair.baseline.message)
            }
        }
        if !preExisting.isEmpty {
            lines.append(
                report.strict == true
                    ? "### Pre-existing (its baseline has the same finding; deciding: --strict)"
                    : "### Pre-existing (its baseline has the same finding; not deciding without --strict)")
            lines.append("")
            lines.append(contentsOf: preExisting)
            lines.append("")
        }
        if let warnings = report.warnings {
            lines.append("### Warnings (sweep hygiene; deciding only under --strict)")
            lines.append("")
            lines.append(contentsOf: warnings.map { "- \(Mark.warning.text) " + text($0) })
            lines.append("")
        }
        if let policies = report.policies {
            lines.append("### Declared policies")
            lines.append("")
            for policy in policies {
                var line = "- `\(code(policy.build))` \(policy.topic): `\(policy.policy)`, because: " + text(policy.reason)
                if let since = policy.newSince {
                    line +=
                        " A product change to review: " + since.map { "`\(code($0))`" }.joined(separator: ", ")
                        + " did not declare it."
                }
                lines.append(line)
            }
            lines.append("")
        }
        if let shapes = report.shapes, !shapes.isEmpty {
            lines.append("### Secret shapes")
            lines.append("")
            for entry in shapes {
                var line = "- `\(code(entry.label))`: " + entry.covered.map { "`\($0)`" }.joined(separator: ", ")
                if let missing = entry.notCovered { line += "; not seeded: " + missing.map { "`\($0)`" }.joined(separator: ", ") }
                if let narrowed = entry.narrowedBy { line += "; narrowed by " + narrowed.map(text).joined(separator: "; ") }
                lines.append(line)
                for skip in entry.skipped ?? [] { lines.append("  - skipped: " + text(skip)) }
            }
            lines.append("")
        }
        let history = report.historyProblems.flatMap { problem in
            problem.reasons.map { "- \(mark(problem.verdict)) `\(problem.path)` \(problem.scenario): " + text($0) }
        }
        if !history.isEmpty {
            lines.append("### Shipped history (not deciding)")
            lines.append("")
            lines.append(contentsOf: history)
            lines.append("")
        }
        lines.append(contentsOf: timelines(report))
        if let kept = report.keptDevices {
            lines.append("### Kept devices")
            lines.append("")
            lines.append(
                "\(kept.count) devices of what failed are kept in `\(code(kept.folder))` (`--keep-failed`; they hold the case's secrets): "
                    + "every device verb takes them with `--devices-root`; `kept.md` there gives each one's launch lines.")
            lines.append("")
        }
        let reruns = rerunCommands(report: report, inputs: inputs, out: out)
        if !reruns.isEmpty {
            lines.append("### Rerun one cell")
            lines.append("")
            lines.append("```sh")
            lines.append(contentsOf: reruns)
            lines.append("```")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// `upgrade-runner run ...` (`gate --routes ...` for a multi-hop route) for each failed or unknown
    /// (path, scenario), with the run's case id
    /// and the runtime the cell ran on, so that it seeds the same secrets and answers the same codes.
    /// Each writes to its own folder inside the run's, `--out <out>/rerun-<path>-<scenario>`
    /// (`<runtime>-` first on a runtime matrix), never over the run it came from.
    static func rerunCommands(report: GateReport, inputs: RunInputs, out: String) -> [String] {
        var seen: Set<String> = []
        return report.problems(history: false).compactMap { problem -> String? in
            let matrixPath = problem.path
            let path = matrixPath.pair
            var words = ["upgrade-runner", "run"]
            if path.isMultiHop {
                // `run` takes one old and one new build; a route is a gate's (its prefixes come along).
                words = ["upgrade-runner", "gate", "--routes", "'" + path.builds.joined(separator: ">") + "'"]
                words += ["--scenarios", problem.scenario.rawValue, "--case-id", inputs.caseID]
            } else {
                if let old = path.old { words += ["--from", old] }
                words += ["--to", path.new, "--scenario", problem.scenario.rawValue, "--case-id", inputs.caseID]
            }
            words += ["--runtime", "\"\(matrixPath.runtime ?? inputs.runtime)\""]
            let cell = [matrixPath.runtime.map { "\($0)" }, path.description, problem.scenario.rawValue].compactMap { $0 }
                .joined(separator: "-").replacingOccurrences(of: " ", with: "-")
            words += ["--out", ShellWord.quoted(out + "/" + ArtifactLayout.rerunPrefix + cell)]
            let line = words.joined(separator: " ")
            return seen.insert(line).inserted ? line : nil
        }
    }

    /// "Timelines": each failing attempt's timeline (``Timeline``), in plan order, in a text block,
    /// until ``Timeline/summaryLineLimit`` lines of them are shown; then where the rest are.
    static func timelines(_ report: GateReport) -> [String] {
        guard let timelines = report.timelines, !timelines.isEmpty else { return [] }
        var lines = ["### Timelines", ""]
        var budget = Timeline.summaryLineLimit
        var shown = 0
        for timeline in timelines where budget > 0 {
            let taken = Array(timeline.lines.prefix(budget))
            budget -= taken.count
            shown += 1
            lines.append("`\(code(timeline.cell))`" + (timeline.attempt.map { ", attempt `\(code($0))`" } ?? "") + ":")
            lines.append("")
            lines.append("```text")
            lines.append(contentsOf: taken)
            if taken.count < timeline.lines.count { lines.append("… \(timeline.lines.count - taken.count) more lines") }
            lines.append("```")
            lines.append("")
        }
        let hidden = timelines.count - shown
        if hidden > 0 || budget <= 0 {
            lines.append(
                "\(timelines.count) timelines in all"
                    + (hidden > 0 ? " (\(hidden) not shown here)" : "")
                    + ": every one in full in gate.json (`timelines`), an exploration's also in its cell's attempts.json.")
            lines.append("")
        }
        return lines
    }

    /// A `### title` section with a table of `rows` under `header` (its two lines), when there are rows.
    private static func section(_ title: String, header: String, rows: [String], into lines: inout [String]) {
        guard !rows.isEmpty else { return }
        lines.append("### " + title)
        lines.append("")
        lines.append(contentsOf: header.split(separator: "\n").map(String.init))
        lines.append(contentsOf: rows)
        lines.append("")
    }

    /// One row per path, in the report's path order: its cells, the launches of all their devices,
    /// the clocks its new build first launched at besides the cell's fixed date (late-upgrade's, and
    /// honest-status's second clock), and its seed variants.
    private static func inputsRows(_ report: GateReport, flavor: Flavor) -> [String] {
        guard let inputs = report.inputs, !inputs.isEmpty else { return [] }
        var byPath: [String: [CellInputs]] = [:]
        for cell in inputs {
            let path = cell.cell.split(separator: "/").dropLast().joined(separator: "/")
            byPath[path, default: []].append(cell)
        }
        return report.paths.compactMap { path -> String? in
            guard let cells = byPath[path.path] else { return nil }
            let launches = cells.map(\.launches).reduce(0, +)
            var clocks: [String] = []
            for cell in cells {
                for clock in cell.clocks ?? [] where !clocks.contains(clock) { clocks.append(clock) }
            }
            let variants = cells.flatMap { $0.variants ?? [] }
            let variantText = variants.isEmpty ? "—" : "\(variants.count): " + variants.joined(separator: "; ")
            let clockText = clocks.isEmpty ? "+0 d" : clocks.joined(separator: "; ")
            return
                "| `\(path.path)` | \(cells.count) | \(launches) | \(text(clockText, flavor: flavor)) | \(text(variantText, flavor: flavor)) |"
        }
    }

    /// How a (path, scenario) case or a path is drawn: its verdict, or, on a deciding path, apart
    /// from a deciding FAIL, a FAIL that is pre-existing alone and a PASS with hygiene warnings.
    enum Mark: Hashable {
        case verdict(Verdict)
        /// Every FAIL is pre-existing (its baseline has the same finding): not deciding without `--strict`.
        case preExisting
        /// PASS, with hygiene warnings that decide only under `--strict`.
        case warning
        /// No checker could judge it.
        case notJudged

        init(_ scenario: GateReport.ScenarioResult, path: String, report: GateReport) {
            guard report.decides(path) else { self = .verdict(scenario.verdict); return }
            let failing = scenario.conditions.filter { $0.verdict != .pass }
            if scenario.verdict == .fail,
                failing.allSatisfy({ report.excused.contains("\(path)/\(scenario.scenario)/\($0.condition)") })
            {
                self = .preExisting
            } else if scenario.verdict == .pass,
                (report.warnings ?? []).contains(where: { $0.hasPrefix("\(path)/\(scenario.scenario)/") })
            {
                self = .warning
            } else {
                self = .verdict(scenario.verdict)
            }
        }

        init(_ path: GateReport.PathResult, report: GateReport) {
            let marks = path.scenarios.map { Mark($0, path: path.path, report: report) }
            if path.verdict == .fail, !marks.contains(.verdict(.fail)) {
                self = marks.contains(.verdict(.unknown)) ? .verdict(.unknown) : .preExisting
            } else if path.verdict == .pass, marks.contains(.warning) {
                self = .warning
            } else {
                self = .verdict(path.verdict)
            }
        }

        var text: String {
            switch self {
            case .verdict(let verdict): SummaryWriter.mark(verdict)
            case .preExisting: "🔶 PRE-EXISTING"
            case .warning: "🟡 WARNING"
            case .notJudged: "➖ NOT JUDGED"
            }
        }

        /// Whether a summary that draws this needs the legend (the three verdicts speak for themselves).
        var needsLegend: Bool { if case .verdict = self { false } else { true } }

        static func legend(strict: Bool) -> String {
            "Legend: \(mark(.pass)); \(mark(.fail)) decides; \(mark(.unknown)) could not be judged to the end (fails closed); "
                + "\(Mark.preExisting.text): every failure is its baseline's too, "
                + (strict ? "deciding (--strict)" : "not deciding without --strict")
                + "; \(Mark.warning.text): passed with sweep-hygiene warnings, deciding only under --strict; "
                + "\(Mark.notJudged.text): no cell of the condition could be judged, neither passed nor failed."
        }
    }

    /// `✅ PASS`, `❌ FAIL` or `⚠️ UNKNOWN`.
    /// One row per exploration cell: what it explored (its checker's note) and how many attempts failed.
    private static func exploration(_ report: GateReport, flavor: Flavor) -> [String] {
        var rows: [String] = []
        for path in report.paths {
            for scenario in path.scenarios where scenario.scenario.isExploration {
                let findings = scenario.conditions.filter { $0.condition != .noSecretInArtifacts }.flatMap(\.findings)
                let failed = Set(findings.filter { $0.verdict != .pass }.compactMap(\.item)).count
                let note =
                    findings.first { $0.verdict == .pass && $0.notJudged != true }?.message
                    ?? (failed > 0 ? "\(failed) attempt(s) failed or could not be judged" : "nothing recorded")
                rows.append("| `\(path.path)` | \(scenario.scenario) | \(text(note, flavor: flavor)) | \(failed) |")
            }
        }
        return rows
    }

    static func mark(_ verdict: Verdict) -> String {
        switch verdict {
        case .pass: "✅ PASS"
        case .fail: "❌ FAIL"
        case .unknown: "⚠️ UNKNOWN"
        }
    }

    /// Text safe in a Markdown table or list: one line, no HTML (in the Markdown flavour), no table breaks.
    static func text(_ raw: String, flavor: Flavor = .markdown) -> String {
        var out = ""
        for character in GateFinding.oneLine(raw) {
            switch character {
            case "|": out += "\\|"
            case "<" where flavor == .markdown: out += "&lt;"
            case ">" where flavor == .markdown: out += "&gt;"
            case "`": out += "'"
            default: out.append(character)
            }
        }
        return out
    }

    private static func code(_ raw: String) -> String { text(raw).replacingOccurrences(of: "'", with: "") }
}
