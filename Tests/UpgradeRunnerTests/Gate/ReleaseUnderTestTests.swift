import Foundation
@testable import GateExecution
@testable import GateModel
import Testing

/// The release under test: only the paths that end at it decide the verdict; the others are
/// shipped history, reported in gate.json, summary.md and junit.xml without deciding.
@Suite struct ReleaseUnderTestTests {
    private func cell(_ path: String, _ condition: GateCondition = .readsOldData) -> GateCell {
        GateCell(path: .id(path), scenario: .upgrade, condition: condition)
    }

    private func report(failing: String, release: String?) -> GateReport {
        let cells = ["v1-to-v2", "v1-to-v3", "v2-to-v3"].map { cell($0) }
        let findings = cells.map {
            GateFinding($0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: $0.path == failing ? .fail : .pass, detail: "checked")
        }
        return GateEngine.evaluate(expected: cells, findings: findings, release: release)
    }

    @Test("a FAIL on a path that ends before the release is shipped history: the gate passes and says so")
    func history() {
        let report = report(failing: "v1-to-v2", release: "v3")
        #expect(report.verdict == .pass && report.reasons.isEmpty)
        #expect(report.release == "v3" && report.history == ["v1-to-v2"])
        #expect(report.paths.first { $0.path == "v1-to-v2" }?.verdict == .fail)
        #expect(report.conditions.map(\.failed) == [0] && report.conditions.map(\.passed) == [2])
        #expect(report.problems.isEmpty && report.historyProblems.map(\.path) == ["v1-to-v2"])
    }

    @Test("a FAIL on a path that ends at the release decides; naming another release moves the line")
    func deciding() {
        #expect(report(failing: "v2-to-v3", release: "v3").verdict == .fail)
        let older = report(failing: "v2-to-v3", release: "v2")
        #expect(older.verdict == .pass && older.history == ["v1-to-v3", "v2-to-v3"])
        #expect(report(failing: "v1-to-v2", release: nil).verdict == .fail)
    }

    @Test("a matrix path decides by its last build, whatever its runtime")
    func matrix() {
        #expect(GateEngine.decides(.id("iOS-15.0/v1-to-v3"), release: "v3") && !GateEngine.decides(.id("iOS-15.0/v1-to-v2"), release: "v3"))
        #expect(GateEngine.decides(.id("v1-to-v2-to-v3"), release: "v3") && !GateEngine.decides(.id("none-to-v2"), release: "v3"))
    }

    @Test("summary.md names the release and lists history's failures apart; junit.xml does not fail them")
    func documents() throws {
        let inputs = RunInputs(
            builds: ["v1", "v2", "v3"], runtime: .current, caseID: "c", scenarios: [.upgrade],
            buildFiles: [:], runnerVersion: "test")
        let report = report(failing: "v1-to-v2", release: inputs.releaseUnderTest)
        let summary = SummaryWriter.render(report: report, inputs: inputs, out: "artifacts/gate")
        #expect(summary.contains("Release under test: `v3`; only the paths that end at it decide the verdict."))
        #expect(summary.contains("Shipped history, reported and not deciding: `v1-to-v2`."))
        #expect(summary.contains("### Shipped history (not deciding)\n\n- ❌ FAIL `v1-to-v2` upgrade: reads-old-data: checked"))
        #expect(!summary.contains("### Failures and unknowns"))
        let junit = JUnitWriter.render(report: report, inputs: inputs)
        #expect(junit.contains(#"failures="0""#) && !junit.contains("<failure"))
        #expect(junit.contains(#"<property name="historyVerdict" value="FAIL"/>"#))
        #expect(junit.contains(#"<property name="shippedHistory""#))
    }
}

/// Pre-existing: a deciding FAIL the old build in the new build's place fails too.
@Suite struct PreExistingTests {
    private let cells = ["v1-to-v3", "v2-to-v3"].map { GateCell(path: .id($0), scenario: .reinstall, condition: .reinstallSweeps) }

    private func report(strict: Bool) -> GateReport {
        let findings = cells.map {
            GateFinding($0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: $0.path == "v1-to-v3" ? .fail : .pass, detail: "swept nothing")
        }
        return GateEngine.evaluate(
            expected: cells, findings: findings, release: "v3", preExisting: [cells[0]: "v1-to-v1/reinstall"], strict: strict)
    }

    @Test("a FAIL the old release already had is reported, and decides only under --strict")
    func excused() {
        let lenient = report(strict: false)
        #expect(lenient.verdict == .pass && lenient.problems.isEmpty)
        #expect(lenient.preExisting == [.init(cell: "v1-to-v3/reinstall/reinstall-sweeps", shownBy: "v1-to-v1/reinstall")])
        #expect(lenient.paths.first?.verdict == .fail)
        let strict = report(strict: true)
        #expect(strict.verdict == .fail && strict.strict == true && strict.problems.count == 1)
    }

    @Test("the old build stands in the new build's place: v1-to-v3 as v1-to-v1, a route's last hop as its previous build")
    func baseline() {
        #expect(PreExisting.baseline(of: PlanUnit(path: BuildPair(old: "v1", new: "v3"), scenario: .reinstall))?.pathID == "v1-to-v1")
        #expect(
            PreExisting.baseline(of: PlanUnit(path: BuildPair(route: ["v1", "v2", "v3"]), scenario: .upgrade))?.pathID
                == "v1-to-v2-to-v2")
        #expect(PreExisting.baseline(of: PlanUnit(path: BuildPair(old: nil, new: "v3"), scenario: .freshInstall)) == nil)
    }

    @Test("summary.md lists it apart, junit.xml as properties")
    func documents() {
        let inputs = RunInputs(
            builds: ["v1", "v2", "v3"], runtime: .current, caseID: "c", scenarios: [.reinstall], buildFiles: [:], runnerVersion: "test")
        let summary = SummaryWriter.render(report: report(strict: false), inputs: inputs, out: "artifacts/gate")
        #expect(summary.contains("### Pre-existing (the old release fails it too; not deciding without --strict)"))
        #expect(summary.contains("- ❌ FAIL `v1-to-v3/reinstall/reinstall-sweeps` (v1-to-v1/reinstall fails it too): swept nothing"))
        let junit = JUnitWriter.render(report: report(strict: false), inputs: inputs)
        #expect(!junit.contains("<failure") && junit.contains(#"<property name="preExistingVerdict" value="FAIL"/>"#))
    }
}

/// Which cells get a baseline, and what the baseline's findings make pre-existing.
@Suite struct PreExistingBaselineTests {
    private let upgrade = PlanUnit(path: BuildPair(old: "v1", new: "v3"), scenario: .upgrade)
    private let history = PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: .upgrade)

    private func finding(_ unit: PlanUnit, _ condition: GateCondition, _ verdict: Verdict) -> GateFinding {
        GateFinding(condition, path: unit.runtimePath, scenario: unit.scenario, verdict: verdict, detail: "d")
    }

    @Test("only a deciding cell's FAILs get a baseline, and not the leak scan's")
    func chosen() {
        let baselines = PreExisting.baselines(
            units: [upgrade, history],
            findings: [
                [finding(upgrade, .readsOldData, .fail), finding(upgrade, .noSecretInArtifacts, .fail), finding(upgrade, .idempotent, .pass)],
                [finding(history, .readsOldData, .fail)],
            ],
            release: "v3")
        #expect(baselines.count == 1)
        #expect(baselines.first?.baseline.pathID == "v1-to-v1" && baselines.first?.failed == [.readsOldData])
        #expect(PreExisting.baselines(units: [upgrade], findings: [[finding(upgrade, .readsOldData, .pass)]], release: "v3").isEmpty)
    }

    @Test("a condition the baseline fails too is pre-existing; one it passes is the release's")
    func judged() {
        let baseline = PreExisting.baseline(of: upgrade)!
        let cells = PreExisting.judged(
            original: upgrade, baseline: baseline, failed: [.readsOldData, .honestStatus],
            findings: [finding(baseline, .readsOldData, .fail), finding(baseline, .honestStatus, .pass)])
        #expect(cells == [GateCell(path: .id("v1-to-v3"), scenario: .upgrade, condition: .readsOldData): "v1-to-v1/upgrade"])
        // A hygiene warning of the baseline is no FAIL of the old release; nor does a warning get a baseline.
        let warned = GateFinding(
            .reinstallSweeps, path: baseline.runtimePath, scenario: baseline.scenario, verdict: .fail, detail: "hygiene", warning: true)
        #expect(PreExisting.judged(original: upgrade, baseline: baseline, failed: [.reinstallSweeps], findings: [warned]).isEmpty)
        let original = GateFinding(
            .reinstallSweeps, path: upgrade.runtimePath, scenario: upgrade.scenario, verdict: .fail, detail: "hygiene", warning: true)
        #expect(PreExisting.baselines(units: [upgrade], findings: [[original]], release: "v3").isEmpty)
    }
}
