import UpgradeContract

/// Writes `junit.xml` in the de facto Ant/Jenkins junit-4 shape: one `testsuite` per path, one
/// `testcase` per (path, scenario) with `classname` = path id and `name` = scenario id. A condition
/// no cell judged (``GateReport/notJudged``) is a `<skipped>` case of the `gate` suite, named by the
/// condition, so that CI shows it as not run rather than passed.
///
/// A FAIL carries a `<failure type="FAIL">`; an UNKNOWN carries an `<error type="UNKNOWN">`, never
/// `<skipped>`: CI systems count skipped tests as passing, and UNKNOWN must fail closed. Findings on
/// the whole run and reasons the run is incomplete go into a last suite named `gate`. No times: the
/// file is byte-for-byte the same for the same findings. A path of shipped history (it ends before
/// the release under test) is reported, not failed: its suite has the property `shippedHistory`, and
/// a case that did not pass has the properties `historyVerdict` and `historyReason` instead of a
/// `<failure>` or `<error>`; so does a pre-existing failure (`preExistingVerdict`) and a hygiene
/// warning, which fails only under `--strict` (`warningVerdict`, `warningReason`). In a runtime matrix the path id, and so
/// each suite's name and classname, starts with the runtime (`iOS-15.0/v1-to-v2`), and the suite's
/// `runtime` property names that one runtime.
enum JUnitWriter {
    static func render(report: GateReport, inputs: RunInputs) -> String {
        let excused = report.excused
        var suites: [Suite] = report.paths.map { path in
            let decides = report.decides(path.path)
            return Suite(
                name: path.path, runtime: path.runtimePath.runtime, verdict: path.verdict, decides: decides,
                cases: path.scenarios.map { scenario in
                    let reasons = scenario.conditions.filter { $0.verdict == scenario.verdict && $0.verdict != .pass }
                        .flatMap { cell in cell.reasons.map { "\(cell.condition): \($0)" } }
                    let failing = scenario.conditions.filter { $0.verdict != .pass }
                    if decides, !failing.isEmpty,
                        failing.allSatisfy({ excused.contains("\(path.path)/\(scenario.scenario)/\($0.condition)") })
                    {
                        // Every failure is the old release's: a property, not a failure.
                        return Case(
                            classname: path.path, name: scenario.scenario.rawValue, verdict: .pass, reasons: reasons,
                            history: scenario.verdict, label: "preExisting")
                    }
                    let warned = (report.warnings ?? []).filter { $0.hasPrefix("\(path.path)/\(scenario.scenario)/") }
                    if decides, scenario.verdict == .pass, !warned.isEmpty {
                        // A hygiene warning decides only under --strict: a property, not a failure.
                        return Case(
                            classname: path.path, name: scenario.scenario.rawValue, verdict: .pass, reasons: warned,
                            history: .fail, label: "warning")
                    }
                    // Shipped history is reported, not failed: its verdict goes into a property.
                    return Case(
                        classname: path.path, name: scenario.scenario.rawValue, verdict: decides ? scenario.verdict : .pass,
                        reasons: reasons, history: decides || scenario.verdict == .pass ? nil : scenario.verdict)
                })
        }
        var gateCases: [Case] = []
        for condition in Set(report.runFindings.map(\.condition)).sorted() {
            let findings = report.runFindings.filter { $0.condition == condition }
            let verdict = Verdict.combine(findings.map(\.verdict))
            gateCases.append(
                Case(
                    classname: "gate", name: condition.rawValue, verdict: verdict,
                    reasons: findings.filter { $0.verdict == verdict && verdict != .pass }.map(\.message)))
        }
        if !report.incomplete.isEmpty {
            gateCases.append(Case(classname: "gate", name: "complete", verdict: .unknown, reasons: report.incomplete))
        }
        // A condition no cell judged is a skipped case, never a passed one: CI shows it as not run.
        for entry in report.notJudged ?? [] {
            gateCases.append(
                Case(
                    classname: "gate", name: entry.condition.rawValue, verdict: .pass,
                    reasons: ["not judged: " + entry.reasons.joined(separator: "; ")], skipped: true))
        }
        if !gateCases.isEmpty {
            let judged = gateCases.filter { !$0.skipped }
            suites.append(
                Suite(name: "gate", verdict: judged.isEmpty ? .pass : Verdict.combine(judged.map(\.verdict)), cases: gateCases))
        }

        let runWide = [
            ("caseID", inputs.caseID), ("inputsDigest", inputs.digest), ("runtime", inputs.runtimeText),
            ("shard", inputs.shard?.description ?? "all"), ("verdict", report.verdict.rawValue),
        ]
        // A matrix suite (`iOS-15.0/v1-to-v2`) names the one runtime its cases ran on.
        func properties(of suite: Suite) -> [(String, String)] {
            guard let runtime = suite.runtime else { return runWide }
            return runWide.map { $0.0 == "runtime" ? ($0.0, runtime.description) : $0 }
        }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        let all = suites.flatMap(\.cases)
        lines.append(
            #"<testsuites name="upgrade-runner gate" tests="\#(all.count)" failures="\#(all.count { $0.verdict == .fail })" errors="\#(all.count { $0.verdict == .unknown })" skipped="\#(all.count(where: \.skipped))">"#
        )
        for suite in suites {
            lines.append(
                #"  <testsuite name="\#(escape(suite.name))" tests="\#(suite.cases.count)" failures="\#(suite.cases.count { $0.verdict == .fail })" errors="\#(suite.cases.count { $0.verdict == .unknown })" skipped="\#(suite.cases.count(where: \.skipped))">"#
            )
            lines.append("    <properties>")
            let history =
                suite.decides ? [] : [("shippedHistory", "reported, not deciding: the path ends before the release under test")]
            for (name, value) in properties(of: suite) + [("pathVerdict", suite.verdict.rawValue)] + history {
                lines.append(#"      <property name="\#(name)" value="\#(escape(value))"/>"#)
            }
            lines.append("    </properties>")
            for testcase in suite.cases {
                let head = #"    <testcase classname="\#(escape(testcase.classname))" name="\#(escape(testcase.name))""#
                if let history = testcase.history {
                    // Reported as a property, not a failure: CI counts it as passed, a reader sees why not.
                    let reasons = testcase.reasons.isEmpty ? ["\(history)"] : testcase.reasons
                    lines.append(head + ">")
                    lines.append("      <properties>")
                    lines.append(#"        <property name="\#(testcase.label)Verdict" value="\#(history)"/>"#)
                    lines.append(
                        #"        <property name="\#(testcase.label)Reason" value="\#(escape(reasons.joined(separator: "\n")))"/>"#
                    )
                    lines.append("      </properties>")
                    lines.append("    </testcase>")
                    continue
                }
                if testcase.skipped {
                    lines.append(head + ">")
                    lines.append(#"      <skipped message="\#(escape(testcase.reasons.joined(separator: "\n")))"/>"#)
                    lines.append("    </testcase>")
                    continue
                }
                guard testcase.verdict != .pass else { lines.append(head + "/>"); continue }
                let element = testcase.verdict == .fail ? "failure" : "error"
                let reasons = testcase.reasons.isEmpty ? ["\(testcase.verdict)"] : testcase.reasons
                lines.append(head + ">")
                lines.append(
                    #"      <\#(element) type="\#(testcase.verdict)" message="\#(escape(reasons[0]))">\#(escape(reasons.joined(separator: "\n"), attribute: false))</\#(element)>"#
                )
                lines.append("    </testcase>")
            }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n") + "\n"
    }

    private struct Suite {
        var name: String
        /// The one runtime a matrix path's cases ran on (nil outside a matrix, and for `gate`).
        var runtime: RuntimeVersion? = nil
        var verdict: Verdict
        /// False for a path of shipped history (``GateReport/history``).
        var decides = true
        var cases: [Case]
    }

    private struct Case {
        var classname: String
        var name: String
        var verdict: Verdict
        var reasons: [String]
        /// A shipped-history or pre-existing case's own verdict when it is not PASS (the case itself passes).
        var history: Verdict? = nil
        /// The properties' prefix: `history`, `preExisting` or `warning`.
        var label = "history"
        /// A condition no cell judged (``GateReport/notJudged``): `<skipped>`, with the reasons.
        var skipped = false
    }

    /// Escapes XML's five special characters (only `&`, `<`, `>` outside attributes) and replaces
    /// characters XML 1.0 cannot hold with U+FFFD.
    static func escape(_ text: String, attribute: Bool = true) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "'" where attribute: out += "&apos;"
            case "\n" where attribute: out += "&#10;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
