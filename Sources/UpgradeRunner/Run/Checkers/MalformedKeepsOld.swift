/// malformed-keeps-old: with malformed legacy data (a corrupt archive, wrong types, non-UTF-8), the
/// new build does not crash, leaves every legacy store's content as it was (preferences, files, and
/// the bytes of the old build's keychain items), and reports an error code (in its launch or its
/// verify launch).
enum MalformedKeepsOld: CellChecker {
    static let condition = GateCondition.malformedKeepsOld

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        guard let before = evidence.snapshots["after-seed"], let after = evidence.snapshots["after-first-launch"],
            let launch = evidence.launches(of: evidence.newBuild, .launch).first?.status,
            let verify = evidence.verifyLaunch?.status
        else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the new build's launches")]
        }
        var findings: [GateFinding] = []
        for (kind, old, new) in [("preference", before.preferences, after.preferences), ("file", before.files, after.files)] {
            for (name, digest) in old.sorted(by: { $0.key < $1.key }) where new[name] != digest {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: name, "legacy \(kind) " + (new[name] == nil ? "deleted" : "overwritten")))
            }
        }
        // Keychain items are compared by identity and bytes: a build may re-save one under a new
        // protection class, or move it unchanged into another access group, but must not drop or
        // rewrite what it could not read. Migration markers (the schema version) are bookkeeping,
        // not legacy data.
        let kept = Dictionary(after.keychain.map { ($0.key, $0.digest) }, uniquingKeysWith: { first, _ in first })
        let moved = Set(after.keychain.map { "\($0.movableKey)#\($0.digest)" })
        for item in before.keychain
        where !item.bookkeeping && kept[item.key] != item.digest
            && !moved.contains("\(item.movableKey)#\(item.digest)")
        {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.key,
                    "legacy keychain item "
                        + (kept[item.key] == nil ? "deleted" : "overwritten")))
        }
        let reports = [launch, verify].flatMap { status in
            status.errors + status.items.filter { [.failed, .mismatch].contains($0.result) }
        }
        if launch.migration?.state != .failed && reports.isEmpty {
            findings.append(evidence.finding(condition, .fail, "the new build reported no error for malformed input"))
        }
        if findings.isEmpty {
            let codes = reports.map { "\($0.name) \($0.operation) \($0.result) \($0.status)" }.joined(separator: ", ")
            findings.append(
                evidence.finding(condition, .pass, "legacy data kept; reported " + (codes.isEmpty ? "migration failed" : codes)))
        }
        return findings
    }
}
