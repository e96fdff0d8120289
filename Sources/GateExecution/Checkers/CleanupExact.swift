import GateModel
/// cleanup-exact: the test's cleanup removes exactly what the case put on the device (by exact
/// service and account), and nothing else: not another case's items, not another team's.
///
/// The case's items are those in the snapshot before the cleanup whose identity and bytes were not
/// on the device before the case's seed launch (created, or rewritten with the case's data); every
/// other item must come through the cleanup unchanged. Migration markers are exempt both ways.
enum CleanupExact: CellChecker {
    static let condition = GateCondition.cleanupExact

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition, among: evidence.launches(of: evidence.newBuild, .cleanup)) {
            return problems
        }
        guard let earlier = evidence.snapshots[.beforeCase], let before = evidence.snapshots[.beforeCleanup],
            let after = evidence.snapshots[.afterCleanup]
        else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the cleanup")]
        }
        // Content is matched apart from the access group: an item the upgrade moved unchanged into
        // another group (a bridge release, the import after an app transfer) is still not the case's.
        struct Content: Hashable { var key: String; var digest: String }
        let earlierContent = Set(earlier.keychain.map { Content(key: $0.movableKey, digest: $0.digest) })
        // Migration markers (the schema version, the migration date) are the app's bookkeeping,
        // one per device whatever the case, and each case's seed rewrites them, often with the
        // same bytes (the date is the device clock): a cleanup may remove them or leave them.
        let data = before.keychain.filter { !$0.bookkeeping }
        let ours = data.filter { !earlierContent.contains(Content(key: $0.movableKey, digest: $0.digest)) }
        let others = data.filter { earlierContent.contains(Content(key: $0.movableKey, digest: $0.digest)) }
        var findings: [GateFinding] = []
        let remaining = Set(after.keychain.map(\.key))
        for item in ours where remaining.contains(item.key) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.key, "the case's item was not removed",
                    key: FindingKey(item.key, in: .keychain, .notRemoved)))
        }
        for item in Set(others).subtracting(after.keychain).sorted() {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.key, "an item that is not the case's was removed or changed",
                    key: FindingKey(item.key, in: .keychain, .changed)))
        }
        for item in after.keychain where !before.keychain.contains(where: { $0.key == item.key }) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.key, "the cleanup added an item",
                    key: FindingKey(item.key, in: .keychain, .added)))
        }
        if ours.isEmpty {
            findings.append(evidence.finding(condition, .fail, "the case left no item, so its cleanup proves nothing"))
        }
        if findings.isEmpty {
            findings.append(
                evidence.finding(
                    condition, .pass,
                    "\(ours.count) item(s) of the case removed; "
                        + "\(others.count) other item(s) untouched"))
        }
        return findings
    }
}
