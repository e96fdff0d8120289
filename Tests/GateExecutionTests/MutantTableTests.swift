import Foundation
@testable import GateExecution
@testable import GateModel
import Testing

/// The caught / not caught logic and the exit code, on synthetic gate reports (no app runs).
@Suite struct MutantTableTests {
    /// A report over the cells of `path` × `scenario` with the given verdict per condition (PASS when not named).
    static func report(path: String, scenario: Scenario, verdicts: [GateCondition: Verdict]) -> GateReport {
        let unit = PlanUnit(path: BuildPair(id: path)!, scenario: scenario)
        let findings = unit.cells.map { cell in
            GateFinding(
                cell.condition, path: cell.runtimePath, scenario: cell.scenario, verdict: verdicts[cell.condition] ?? .pass,
                detail: "synthetic")
        }
        return GateEngine.evaluate(expected: unit.cells, findings: findings)
    }

    @Test("a mutant not caught is named with the reason: its condition UNKNOWN and why, FAIL by another condition, or PASS")
    func notCaughtReasons() {
        func outcome(_ verdicts: [GateCondition: Verdict]) -> MutantOutcome {
            MutantOutcome(
                id: "m", antiPattern: "a", expected: .readsOldData,
                reports: [Self.report(path: "v1-to-m", scenario: .upgrade, verdicts: verdicts)])
        }
        #expect(outcome([.readsOldData: .fail]).notCaughtReason == nil)
        let unknown = outcome([.readsOldData: .unknown])
        #expect(unknown.notCaughtReason?.hasPrefix("`reads-old-data` was UNKNOWN: ") == true, "\(unknown.notCaughtReason ?? "")")
        #expect(unknown.notCaughtReason?.contains("synthetic") == true)
        #expect(
            outcome([.honestStatus: .fail]).notCaughtReason
                == "FAIL by another condition only (`honest-status`), not by `reads-old-data`")
        #expect(outcome([:]).notCaughtReason == "PASS: no condition failed on its paths (v1-to-m)")
        let summary = MutantsSummary(releasedVerdict: .pass, released: ["v1"], mutants: [outcome([:])])
        #expect(summary.table.contains("Not caught: `m`: PASS: no condition failed on its paths (v1-to-m)."), "\(summary.table)")
    }

    @Test("caught only when the expected condition FAILs; another condition failing or UNKNOWN does not count")
    func caught() {
        let failsExpected = MutantOutcome(
            id: "m", antiPattern: "a", expected: .readsOldData,
            reports: [
                Self.report(path: "none-to-m", scenario: .freshInstall, verdicts: [:]),
                Self.report(path: "v1-to-m", scenario: .upgrade, verdicts: [.readsOldData: .fail]),
            ])
        #expect(failsExpected.caught)
        #expect(failsExpected.failed == [.readsOldData])
        #expect(failsExpected.paths == ["none-to-m", "v1-to-m"])

        let failsOther = MutantOutcome(
            id: "m", antiPattern: "a", expected: .readsOldData,
            reports: [
                Self.report(path: "v1-to-m", scenario: .upgrade, verdicts: [.noSecretInArtifacts: .fail])
            ])
        #expect(!failsOther.caught)
        #expect(failsOther.failed == [.noSecretInArtifacts])
        #expect(failsOther.caughtText == "no")

        let unknown = MutantOutcome(
            id: "m", antiPattern: "a", expected: .crashSafe,
            reports: [
                Self.report(path: "v1-to-m", scenario: .crashPoints, verdicts: [.crashSafe: .unknown])
            ])
        #expect(!unknown.caught)
        #expect(unknown.unknown == [.crashSafe])
        #expect(unknown.caughtText == "no (crash-safe UNKNOWN)")
    }

    @Test("a FAIL about the whole run (a leak in run.json) counts for its condition")
    func runFinding() {
        var report = Self.report(path: "v1-to-m", scenario: .upgrade, verdicts: [:])
        report.runFindings = [GateFinding(.noSecretInArtifacts, path: nil, scenario: nil, verdict: .fail, detail: "leak")]
        #expect(MutantOutcome(id: "m", antiPattern: "a", expected: .noSecretInArtifacts, reports: [report]).caught)
    }

    static func outcome(_ id: String, caught: Bool) -> MutantOutcome {
        MutantOutcome(
            id: id, antiPattern: "pattern of \(id)", expected: .idempotent, paths: ["v1-to-\(id)"],
            failed: caught ? [.idempotent, .readsOldData] : [.readsOldData], unknown: [])
    }

    @Test(
        "exit code: 0 all caught and released PASS; 1 an escape, a released FAIL or no mutant; 3 released UNKNOWN",
        arguments: [
            ([true, true], Verdict.pass, Int32(0)), ([true, false], .pass, 1), ([true, true], .fail, 1),
            ([false], .unknown, 1), ([true], .unknown, 3), ([], .pass, 1),
        ])
    func exitCode(caught: [Bool], released: Verdict, expected: Int32) {
        let summary = MutantsSummary(
            releasedVerdict: released, released: ["v1", "v2"],
            mutants: caught.enumerated().map { Self.outcome("m\($0.offset)", caught: $0.element) })
        #expect(summary.exitCode == expected)
    }

    @Test(
        "the table: one row per mutant sorted by id, failed conditions in declaration order, the power and the released verdict")
    func table() {
        let summary = MutantsSummary(
            releasedVerdict: .pass, released: ["v1", "v2", "v3"],
            mutants: [
                Self.outcome("zeta", caught: false), Self.outcome("alpha", caught: true),
                MutantOutcome(id: "pipe", antiPattern: "a | b", expected: .crashSafe, paths: [], failed: [], unknown: []),
            ])
        #expect(
            summary.table == """
                | mutant | anti-pattern | expected condition | conditions that failed | caught |
                | --- | --- | --- | --- | --- |
                | `alpha` | pattern of alpha | `idempotent` | `reads-old-data`, `idempotent` | yes |
                | `pipe` | a \\| b | `crash-safe` | — | no |
                | `zeta` | pattern of zeta | `idempotent` | `reads-old-data` | no |

                Caught 1 of 3 mutants by their expected condition (33%).
                Not caught: `pipe`: PASS: it ran on no path.
                Not caught: `zeta`: FAIL by another condition only (`reads-old-data`), not by `idempotent`.
                Released builds v1, v2, v3: PASS.

                """)
    }
}
