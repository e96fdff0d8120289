import Foundation
@testable import GateModel
import Testing

/// Never a silent PASS: a condition no deciding cell judged is "not judged" in gate.json, summary.md
/// (and so the terminal's table) and junit.xml, with the checkers' reason; counts leave such cells out.
@Suite struct NotJudgedTests {
    private let inputs = RunInputs(
        builds: ["v1", "v2"], runtime: .current, caseID: "c", scenarios: [.upgrade], buildFiles: [:], runnerVersion: "test")
    private let reason = "not judged: v2 registers no startup read (AppBuild.startupRead)"
    private let why = "v2 registers no startup read (AppBuild.startupRead)"

    private func cell(_ path: String, _ condition: GateCondition, _ scenario: Scenario = .upgrade) -> GateCell {
        GateCell(path: .id(path), scenario: scenario, condition: condition)
    }

    /// reads-old-data judged and passed; stays-signed-in not judged on `unjudged` of its cells.
    private func report(staysSignedIn paths: [String], unjudged: Set<String>) -> GateReport {
        var cells: [GateCell] = []
        var findings: [GateFinding] = []
        for path in paths {
            for condition in [GateCondition.readsOldData, .staysSignedIn] {
                let cell = cell(path, condition)
                cells.append(cell)
                let notJudged = condition == .staysSignedIn && unjudged.contains(path)
                findings.append(
                    GateFinding(
                        condition, path: cell.runtimePath, scenario: .upgrade, verdict: .pass,
                        detail: notJudged ? reason : "read back",
                        notJudged: notJudged))
            }
        }
        return GateEngine.evaluate(expected: cells, findings: findings, release: "v2")
    }

    @Test("a condition with no judged cell is not in the conditions' table as PASS: it is not judged, with the reason")
    func noJudgedCell() throws {
        let report = report(staysSignedIn: ["v1-to-v2"], unjudged: ["v1-to-v2"])
        #expect(report.verdict == .pass)
        #expect(report.conditions.map(\.condition) == [.readsOldData])
        #expect(report.notJudged == [.init(condition: .staysSignedIn, cells: 1, reasons: [why])])
        #expect(report.paths[0].scenarios[0].conditions.first { $0.condition == .staysSignedIn }?.notJudged == reason)

        let summary = SummaryWriter.render(report: report, inputs: inputs, out: "out")
        #expect(summary.contains("| `stays-signed-in` | ➖ NOT JUDGED | — | — | — |"), "\(summary)")
        #expect(!summary.contains("| `stays-signed-in` | ✅ PASS"))
        #expect(summary.contains("- `stays-signed-in`: none of its 1 cell(s) judged: \(why)"))
        #expect(summary.contains("➖ NOT JUDGED: no cell of the condition could be judged"))
        let terminal = SummaryWriter.render(report: report, inputs: inputs, out: "out", flavor: .terminal)
        #expect(terminal.contains("| `stays-signed-in` | ➖ NOT JUDGED | — | — | — |"))

        let junit = JUnitWriter.render(report: report, inputs: inputs)
        #expect(junit.contains(#"<testcase classname="gate" name="stays-signed-in">"#))
        #expect(junit.contains(#"<skipped message="not judged: \#(why)"/>"#))
        #expect(
            junit.contains(#"<testsuites name="upgrade-runner gate" tests="2" failures="0" errors="0" skipped="1">"#), "\(junit)")

        let json = String(decoding: GateArtifacts.gateJSON(report: report, inputs: inputs), as: UTF8.self)
        #expect(json.contains(#""notJudged" : ["#))
        let document = try JSONDecoder().decode(GateDocument.self, from: Data(json.utf8))
        #expect(document.report.notJudged == report.notJudged)
        #expect(document.report.allFindings.contains { $0.notJudged == true })
    }

    @Test("a condition judged on some cells counts only those, and says how many were not judged")
    func someCells() {
        let report = report(staysSignedIn: ["v1-to-v2", "v1-to-v2-to-v2"], unjudged: ["v1-to-v2"])
        let row = report.conditions.first { $0.condition == .staysSignedIn }
        #expect(row?.passed == 1 && row?.failed == 0 && row?.unknown == 0 && row?.notJudged == 1)
        #expect(report.notJudged == nil)
        let summary = SummaryWriter.render(report: report, inputs: inputs, out: "out")
        #expect(summary.contains("| `stays-signed-in` | ✅ PASS | 1 | 0 | 0 |"))
        #expect(summary.contains("- `stays-signed-in`: 1 of its cells not judged (counted in none of the columns): \(why)"))
    }

    @Test("a gate with deciding cells and not one judged is UNKNOWN, never PASS")
    func nothingJudged() {
        let cell = cell("v1-to-v2", .staysSignedIn)
        let report = GateEngine.evaluate(
            expected: [cell],
            findings: [
                GateFinding(
                    .staysSignedIn, path: cell.runtimePath, scenario: .upgrade, verdict: .pass, detail: reason, notJudged: true)
            ],
            release: "v2")
        #expect(report.verdict == .unknown)
        #expect(report.reasons == ["no condition was judged: stays-signed-in (\(why))"])
    }

    @Test("a report with nothing out of the ordinary draws no legend (the documents of a plain PASS keep their bytes)")
    func noLegend() {
        let report = report(staysSignedIn: ["v1-to-v2"], unjudged: [])
        #expect(report.notJudged == nil && report.conditions.allSatisfy { $0.notJudged == nil })
        let summary = SummaryWriter.render(report: report, inputs: inputs, out: "out")
        #expect(!summary.contains("Legend:") && !summary.contains("Not judged"))
        #expect(!JUnitWriter.render(report: report, inputs: inputs).contains("<skipped"))
    }
}
