import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
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
            GateFinding(
                $0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: $0.path == failing ? .fail : .pass,
                detail: "checked")
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
        #expect(
            GateEngine.decides(.id("iOS-15.0/v1-to-v3"), release: "v3")
                && !GateEngine.decides(.id("iOS-15.0/v1-to-v2"), release: "v3"))
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

/// Pre-existing, finding by finding: a FAIL of the release is the old release's only when its
/// baseline has a FAIL with the same condition and key (secret or item, store, kind of loss).
@Suite struct PreExistingTests {
    private let cells = ["v1-to-v3", "v2-to-v3"].map {
        GateCell(path: .id($0), scenario: .reinstall, condition: .reinstallSweeps)
    }
    private let survived = FindingKey("genp/ledger/session", in: .keychain, .survived)

    private func fail(_ cell: GateCell, _ detail: String, key: FindingKey?, item: String? = nil) -> GateFinding {
        GateFinding(
            cell.condition, path: cell.runtimePath, scenario: cell.scenario, item: item, verdict: .fail, detail: detail, key: key)
    }

    /// `v1-to-v3` fails with `findings`; its baseline `v1-to-v1/reinstall` found `baseline`.
    private func report(_ findings: [GateFinding], baseline: [GateFinding], strict: Bool = false) -> GateReport {
        let all =
            findings + [
                GateFinding(
                    cells[1].condition, path: cells[1].runtimePath, scenario: cells[1].scenario, verdict: .pass, detail: "swept")
            ]
        return GateEngine.evaluate(
            expected: cells, findings: all, release: "v3",
            baselines: [cells[0]: .init(shownBy: "v1-to-v1/reinstall", findings: baseline)], strict: strict)
    }

    private var baselineCell: GateCell { GateCell(path: .id("v1-to-v1"), scenario: .reinstall, condition: .reinstallSweeps) }

    @Test("a FAIL whose baseline has the same finding is reported beside it, and decides only under --strict")
    func excused() {
        let mine = fail(cells[0], "the old install's keychain item survived (04-v3-verify)", key: survived)
        let theirs = fail(baselineCell, "the old install's keychain item survived (04-v1-verify)", key: survived)
        let lenient = report([mine], baseline: [theirs])
        #expect(lenient.verdict == .pass && lenient.problems.isEmpty)
        #expect(
            lenient.preExisting
                == [
                    .init(
                        cell: "v1-to-v3/reinstall/reinstall-sweeps", shownBy: "v1-to-v1/reinstall",
                        findings: [.init(finding: mine, baseline: theirs)])
                ])
        #expect(lenient.paths.first?.verdict == .fail)
        let strict = report([mine], baseline: [theirs], strict: true)
        #expect(strict.verdict == .fail && strict.strict == true && strict.problems.count == 1)
    }

    @Test("a baseline that fails the condition for one secret does not excuse the release losing another: FAIL")
    func anotherSecret() {
        let cell = GateCell(path: .id("v1-to-v3"), scenario: .malformed, condition: .malformedKeepsOld)
        let pin = GateFinding(
            .malformedKeepsOld, path: cell.runtimePath, scenario: .malformed, item: "group.pins/pin.json", verdict: .fail,
            detail: "legacy app group file deleted", key: FindingKey("group.pins/pin.json", in: .appGroupFile, .deleted))
        let token = GateFinding(
            .malformedKeepsOld, path: .id("v1-to-v1"), scenario: .malformed, item: "token", verdict: .fail,
            detail: "the new build reported no error for the malformed token",
            key: FindingKey("token alone", in: .secret, .notReported))
        let report = GateEngine.evaluate(
            expected: [cell], findings: [pin], release: "v3",
            baselines: [cell: .init(shownBy: "v1-to-v1/malformed", findings: [token])])
        #expect(report.verdict == .fail && report.preExisting == nil)
        #expect(report.reasons == ["v1-to-v3/malformed/malformed-keeps-old: group.pins/pin.json: legacy app group file deleted"])
    }

    @Test("the same secret with another kind of loss, another store, or no key at all is the release's own")
    func notTheSame() {
        let lost = FindingKey("pin", in: .secret, .lost)
        for (mine, theirs) in [
            (lost, FindingKey("pin", in: .secret, .wrongResult)),
            (FindingKey("pin", in: .preference, .deleted), FindingKey("pin", in: .file, .deleted)),
        ] {
            let result = report([fail(cells[0], "lost", key: mine)], baseline: [fail(baselineCell, "lost", key: theirs)])
            #expect(result.verdict == .fail && result.preExisting == nil, "\(mine) against \(theirs)")
        }
        // A crash has no key: whatever the baseline did, it decides.
        let crash = report(
            [fail(cells[0], "the launch crashed", key: nil, item: "03-v3-launch")],
            baseline: [fail(baselineCell, "the launch crashed", key: nil, item: "03-v3-launch")])
        #expect(crash.verdict == .fail && crash.preExisting == nil)
        // Nor does another condition's FAIL of the baseline excuse it, nor a baseline's hygiene warning.
        let otherCondition = GateFinding(
            .readsOldData, path: .id("v1-to-v1"), scenario: .reinstall, verdict: .fail, detail: "lost", key: survived)
        let warned = GateFinding(
            .reinstallSweeps, path: .id("v1-to-v1"), scenario: .reinstall, verdict: .fail, detail: "hygiene", warning: true,
            key: survived)
        #expect(report([fail(cells[0], "survived", key: survived)], baseline: [otherCondition, warned]).verdict == .fail)
    }

    @Test("a cell whose FAILs are in part the baseline's decides by the rest, and lists both")
    func partly() {
        let old = fail(cells[0], "session survived", key: survived)
        let new = fail(
            cells[0], "pin was read after the reinstall", key: FindingKey("pin", in: .secret, .readAfterReinstall), item: "pin")
        let report = report([old, new], baseline: [fail(baselineCell, "session survived", key: survived)])
        #expect(report.verdict == .fail)
        #expect(report.reasons == ["v1-to-v3/reinstall/reinstall-sweeps: pin: pin was read after the reinstall"])
        #expect(report.preExisting?.first?.alsoDeciding == true && report.preExisting?.first?.findings?.map(\.finding) == [old])
        #expect(report.excused.isEmpty && report.problems.count == 1)
    }

    @Test("an excused FAIL beside an UNKNOWN of the release's own: the cell decides UNKNOWN, and says why")
    func excusedBesideUnknown() {
        let old = fail(cells[0], "session survived", key: survived)
        let unproven = GateFinding(
            cells[0].condition, path: cells[0].runtimePath, scenario: cells[0].scenario, verdict: .unknown,
            detail: "the verify launch timed out")
        let report = report([old, unproven], baseline: [fail(baselineCell, "session survived", key: survived)])
        #expect(report.verdict == .unknown)
        #expect(report.reasons == ["v1-to-v3/reinstall/reinstall-sweeps: the verify launch timed out"])
        #expect(
            report.preExisting?.first?.alsoDeciding == true
                && report.problems.map(\.reasons) == [["reinstall-sweeps: the verify launch timed out"]])
    }

    @Test(
        "the baseline stands in the release's place: v1-to-v3 as v1-to-v1, a route's last hop as its previous build, a fresh install as the previous release's"
    )
    func baseline() {
        let builds = ["v1", "v2", "v3"]
        #expect(
            PreExisting.baseline(of: PlanUnit(path: BuildPair(old: "v1", new: "v3"), scenario: .reinstall), builds: builds)?
                .pathID == "v1-to-v1")
        #expect(
            PreExisting.baseline(of: PlanUnit(path: BuildPair(route: ["v1", "v2", "v3"]), scenario: .upgrade), builds: builds)?
                .pathID
                == "v1-to-v2-to-v2")
        #expect(
            PreExisting.baseline(of: PlanUnit(path: BuildPair(old: nil, new: "v3"), scenario: .reinstallSelf), builds: builds)?
                .description
                == "none-to-v2/reinstall-self")
        #expect(
            PreExisting.baseline(of: PlanUnit(path: BuildPair(old: nil, new: "v1"), scenario: .reinstallSelf), builds: builds)
                == nil)
    }

    @Test(
        "summary.md shows each pre-existing finding beside the baseline's, drawn apart with a legend; junit.xml as properties; gate.json round-trips"
    )
    func documents() throws {
        let inputs = RunInputs(
            builds: ["v1", "v2", "v3"], runtime: .current, caseID: "c", scenarios: [.reinstall], buildFiles: [:],
            runnerVersion: "test")
        let report = report(
            [fail(cells[0], "survived (04-v3-verify)", key: survived)],
            baseline: [fail(baselineCell, "survived (04-v1-verify)", key: survived)])
        let summary = SummaryWriter.render(report: report, inputs: inputs, out: "artifacts/gate")
        #expect(summary.contains("### Pre-existing (its baseline has the same finding; not deciding without --strict)"))
        #expect(
            summary.contains(
                "- 🔶 PRE-EXISTING `v1-to-v3/reinstall/reinstall-sweeps`: survived (04-v3-verify) | `v1-to-v1/reinstall` has the same finding: survived (04-v1-verify)"
            ))
        #expect(summary.contains("| `v1-to-v3` | 🔶 PRE-EXISTING | 🔶 PRE-EXISTING |"), "\(summary)")
        #expect(
            summary.contains("Legend: ✅ PASS; ❌ FAIL decides;")
                && summary.contains("🔶 PRE-EXISTING: every failure is its baseline's too"))
        let junit = JUnitWriter.render(report: report, inputs: inputs)
        #expect(!junit.contains("<failure") && junit.contains(#"<property name="preExistingVerdict" value="FAIL"/>"#))
        let document = try JSONDecoder().decode(GateDocument.self, from: GateArtifacts.gateJSON(report: report, inputs: inputs))
        #expect(
            document.report.preExisting == report.preExisting
                && document.report.preExisting?.first?.findings?.first?.baseline.key == survived)
    }
}

/// Which cells get a baseline, and what the baseline hands the engine.
@Suite struct PreExistingBaselineTests {
    private let upgrade = PlanUnit(path: BuildPair(old: "v1", new: "v3"), scenario: .upgrade)
    private let history = PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: .upgrade)
    private let reinstallSelf = PlanUnit(path: BuildPair(old: nil, new: "v3"), scenario: .reinstallSelf)

    private func finding(_ unit: PlanUnit, _ condition: GateCondition, _ verdict: Verdict, warning: Bool = false) -> GateFinding {
        GateFinding(condition, path: unit.runtimePath, scenario: unit.scenario, verdict: verdict, detail: "d", warning: warning)
    }

    @Test("only a deciding cell's FAILs get a baseline, a fresh install's too, and not the leak scan's or a warning's")
    func chosen() {
        let builds = ["v1", "v2", "v3"]
        let baselines = PreExisting.baselines(
            units: [upgrade, history, reinstallSelf],
            findings: [
                [
                    finding(upgrade, .readsOldData, .fail), finding(upgrade, .noSecretInArtifacts, .fail),
                    finding(upgrade, .idempotent, .pass),
                ],
                [finding(history, .readsOldData, .fail)],
                [finding(reinstallSelf, .reinstallSweeps, .fail)],
            ],
            release: "v3", builds: builds)
        #expect(baselines.map(\.baseline.description) == ["v1-to-v1/upgrade", "none-to-v2/reinstall-self"])
        #expect(
            PreExisting.baselines(
                units: [upgrade], findings: [[finding(upgrade, .readsOldData, .pass)]], release: "v3", builds: builds
            ).isEmpty)
        #expect(
            PreExisting.baselines(
                units: [upgrade], findings: [[finding(upgrade, .noSecretInArtifacts, .fail)]], release: "v3", builds: builds
            ).isEmpty)
        #expect(
            PreExisting.baselines(
                units: [upgrade], findings: [[finding(upgrade, .reinstallSweeps, .fail, warning: true)]], release: "v3",
                builds: builds
            )
            .isEmpty)
    }

    @Test("the baseline's findings go to each of the original's cells by condition, named by the baseline's cell")
    func judged() {
        let baseline = PreExisting.baseline(of: reinstallSelf, builds: ["v1", "v2", "v3"])!
        let found = [finding(baseline, .reinstallSweeps, .fail), finding(baseline, .staysSignedIn, .pass)]
        let cells = PreExisting.judged(original: reinstallSelf, baseline: baseline, findings: found)
        let sweeps = GateCell(path: .id("none-to-v3"), scenario: .reinstallSelf, condition: .reinstallSweeps)
        #expect(cells[sweeps] == .init(shownBy: "none-to-v2/reinstall-self", findings: [found[0]]))
        #expect(cells.keys.allSatisfy { $0.condition != .noSecretInArtifacts })
    }
}
