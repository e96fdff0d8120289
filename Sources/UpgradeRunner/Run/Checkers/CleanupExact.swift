/// cleanup-exact: the test's cleanup removes exactly the case's items (by exact service and
/// account), and nothing else: not another case's items, not another team's.
enum CleanupExact: CellChecker {
    static let condition = GateCondition.cleanupExact

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition, among: evidence.launches(of: evidence.newBuild, .cleanup)) {
            return problems
        }
        guard let before = evidence.snapshots["before-cleanup"], let after = evidence.snapshots["after-cleanup"] else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the cleanup")]
        }
        let ours = { (item: DeviceSnapshot.Item) in
            item.service.hasSuffix(evidence.caseID) || item.account.hasSuffix(evidence.caseID)
        }
        var findings: [GateFinding] = []
        let remaining = Set(after.keychain.map(\.key))
        for item in before.keychain where ours(item) && remaining.contains(item.key) {
            findings.append(evidence.finding(condition, .fail, item: item.key, "the case's item was not removed"))
        }
        let expected = before.keychain.filter { !ours($0) }
        for item in Set(expected).subtracting(after.keychain).sorted() {
            findings.append(evidence.finding(condition, .fail, item: item.key, "an item that is not the case's was removed or changed"))
        }
        for item in Set(after.keychain).subtracting(before.keychain).sorted() {
            findings.append(evidence.finding(condition, .fail, item: item.key, "cleanup added or rewrote an item"))
        }
        if before.keychain.filter(ours).isEmpty {
            findings.append(evidence.finding(condition, .fail, "the case left no item named for it, so cleanup cannot be exact"))
        }
        if findings.isEmpty {
            findings.append(evidence.finding(condition, .pass, "\(before.keychain.filter(ours).count) item(s) of the case removed; "
                                             + "\(expected.count) other item(s) untouched"))
        }
        return findings
    }
}
