import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimRuntime
import Testing
import SimRuntime

/// Hygiene warnings (a FAIL that decides only under --strict) and declared policies, as the engine,
/// summary.md, junit.xml and build.json carry them.
@Suite struct WarningsAndPoliciesTests {
    private let cell = GateCell(path: .id("v1-to-v2"), scenario: .reinstall, condition: .reinstallSweeps)

    private func report(strict: Bool, policies: [GateReport.Policy] = []) -> GateReport {
        let findings = [
            GateFinding(
                cell.condition, path: cell.runtimePath, scenario: cell.scenario, item: "keys/T.app//", verdict: .fail,
                detail: "hygiene: a keys item planted before the reinstall survived it", warning: true),
            GateFinding(cell.condition, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass, detail: "swept"),
        ]
        return GateEngine.evaluate(expected: [cell], findings: findings, strict: strict, policies: policies)
    }

    @Test("a warning passes its cell and is listed; under --strict it is the FAIL it is")
    func warnings() {
        let lenient = report(strict: false)
        #expect(lenient.verdict == .pass && lenient.reasons.isEmpty)
        #expect(
            lenient.warnings == [
                "v1-to-v2/reinstall/reinstall-sweeps: keys/T.app//: hygiene: a keys item planted before the reinstall survived it"
            ])
        let strict = report(strict: true)
        #expect(strict.verdict == .fail && strict.warnings == nil)
        #expect(strict.reasons.count == 1 && strict.reasons[0].contains("hygiene"))
    }

    @Test("summary.md and junit.xml show a warning without failing, and the declared policies with their reasons")
    func documents() {
        let inputs = RunInputs(
            builds: ["v1", "v2"], runtime: .current, caseID: "c", scenarios: [.reinstall], buildFiles: [:],
            runnerVersion: "test")
        let policy = GateReport.Policy(
            build: "v2", topic: "reinstall", policy: "keeps-credentials", reason: "stay signed in", newSince: ["v1"])
        let report = report(strict: false, policies: [policy])
        let summary = SummaryWriter.render(report: report, inputs: inputs, out: "artifacts/gate")
        #expect(
            summary.contains(
                "### Warnings (sweep hygiene; deciding only under --strict)\n\n- 🟡 WARNING v1-to-v2/reinstall/reinstall-sweeps: ")
        )
        // Drawn apart from a PASS and a deciding FAIL in the paths' table, with a legend.
        #expect(
            summary.contains("| `v1-to-v2` | 🟡 WARNING | 🟡 WARNING |")
                && summary.contains("🟡 WARNING: passed with sweep-hygiene warnings"))
        #expect(
            summary.contains(
                "### Declared policies\n\n- `v2` reinstall: `keeps-credentials`, because: stay signed in A product change to review: `v1` did not declare it."
            ))
        let junit = JUnitWriter.render(report: report, inputs: inputs)
        #expect(!junit.contains("<failure") && junit.contains(#"<property name="warningVerdict" value="FAIL"/>"#))
        // Nothing of either is written when there is none: gate.json's bytes stay those of before.
        let plain = GateEngine.evaluate(
            expected: [cell],
            findings: [
                GateFinding(cell.condition, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass, detail: "swept")
            ])
        #expect(plain.warnings == nil && plain.policies == nil)
        #expect(!SummaryWriter.render(report: plain, inputs: inputs, out: "artifacts/gate").contains("###"))
    }

    private func manifest(policies: String) throws -> BuildManifest {
        let json = """
            {"id": "v2", "bundleID": "com.example", "marketingVersion": "2.0", "buildNumber": "2", "executable": "V2",
             "schemaVersion": 2, "entitlements": "e.plist", "policies": \(policies)}
            """
        return try JSONDecoder().decode(BuildManifest.self, from: Data(json.utf8))
    }

    @Test(
        "build.json's policies: a closed set with a reason; an unknown topic or value, or no reason, is refused naming the field")
    func decoding() throws {
        let declared = try manifest(policies: #"{"reinstall": {"policy": "keeps-credentials", "reason": "product decision"}}"#)
        #expect(declared.policies?.reinstallPolicy == .keepsCredentials)
        #expect(try manifest(policies: "{}").policies?.reinstallPolicy == .sweeps)
        for (policies, problem) in [
            (
                #"{"uninstall": {"policy": "sweeps", "reason": "x"}}"#,
                #"field "policies.uninstall": "uninstall" is no policy topic (known: reinstall, protection)"#
            ),
            (
                #"{"protection": {"policy": "loosens", "reason": "x"}}"#,
                #"field "policies.protection.policy": "loosens" is not one of keeps, widens"#
            ),
            (
                #"{"reinstall": {"policy": "keeps-everything", "reason": "x"}}"#,
                #"field "policies.reinstall.policy": "keeps-everything" is not one of sweeps, keeps-credentials"#
            ),
            (
                #"{"reinstall": {"policy": "sweeps", "reason": " "}}"#,
                #"field "policies.reinstall.reason": is empty: say why the team chose this policy"#
            ),
            (#"{"reinstall": {"policy": "sweeps"}}"#, #"field "policies.reinstall.reason" is missing"#),
        ] {
            #expect(throws: DecodingError.self, "\(policies)") { try manifest(policies: policies) }
            do {
                _ = try manifest(policies: policies)
            } catch {
                #expect(JSONProblem.describe(error) == problem)
            }
        }
    }
}
