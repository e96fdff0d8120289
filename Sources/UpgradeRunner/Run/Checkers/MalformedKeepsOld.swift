/// malformed-keeps-old: with malformed legacy data (a corrupt archive, wrong types, non-UTF-8), the
/// new build does not crash, leaves every legacy store as it was, and reports an error code.
enum MalformedKeepsOld: CellChecker {
    static let condition = GateCondition.malformedKeepsOld

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        guard let before = evidence.snapshots["after-seed"], let after = evidence.snapshots["after-first-launch"],
              let status = evidence.launches(of: evidence.newBuild, .launch).first?.status else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the new build's launch")]
        }
        var findings: [GateFinding] = []
        for (name, digest) in before.preferences.sorted(by: { $0.key < $1.key }) where after.preferences[name] != digest {
            findings.append(evidence.finding(condition, .fail, item: name, "legacy preference "
                                             + (after.preferences[name] == nil ? "deleted" : "overwritten")))
        }
        for (name, digest) in before.files.sorted(by: { $0.key < $1.key }) where after.files[name] != digest {
            findings.append(evidence.finding(condition, .fail, item: name, "legacy file "
                                             + (after.files[name] == nil ? "deleted" : "overwritten")))
        }
        let reported = status.migration?.state == "failed" || !status.errors.isEmpty
            || status.items.contains { $0.result == "failed" }
        if !reported {
            findings.append(evidence.finding(condition, .fail, "the new build reported no error for malformed input"))
        }
        if findings.isEmpty {
            let codes = (status.errors + status.items.filter { $0.result == "failed" })
                .map { "\($0.name) \($0.operation) \($0.status)" }.joined(separator: ", ")
            findings.append(evidence.finding(condition, .pass, "legacy data kept; reported " + (codes.isEmpty ? "migration failed" : codes)))
        }
        return findings
    }
}
