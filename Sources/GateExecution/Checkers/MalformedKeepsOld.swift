import GateModel
import SimRuntime

/// malformed-keeps-old: with malformed legacy data (a corrupt archive, wrong types, non-UTF-8), the
/// new build does not crash, leaves every legacy store's content as it was (preferences, files, and
/// the bytes of the old build's keychain items), and reports an error code (in its launch or its
/// verify launch). Then per store (the malformed matrix): with one store alone malformed, that
/// store's data stays untouched, an error is reported for it, and every other seeded secret
/// migrates and reads back `found`.
enum MalformedKeepsOld: CellChecker {
    static let condition = GateCondition.malformedKeepsOld

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        guard let before = evidence.snapshots[.afterSeed], let after = evidence.snapshots[.afterFirstLaunch],
            let launch = evidence.launches(of: evidence.newBuild, .launch).first?.status,
            let verify = evidence.verifyLaunch?.status
        else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the new build's launches")]
        }
        var findings: [GateFinding] = []
        for (kind, old, new) in [("preference", before.preferences, after.preferences), ("file", before.files, after.files)] {
            // A preference the builds declare as bookkeeping (a schema marker) is not legacy data,
            // as the keychain's bookkeeping items below are not.
            for (name, digest) in old.sorted(by: { $0.key < $1.key })
            where new[name] != digest && !(kind == "preference" && evidence.declarations.isBookkeepingPreference(name)) {
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
        for attempt in evidence.malformedAttempts { findings += check(attempt, evidence) }
        if findings.isEmpty {
            let codes = reports.map { "\($0.name) \($0.operation) \($0.result) \($0.status)" }.joined(separator: ", ")
            findings.append(
                evidence.finding(
                    condition, .pass,
                    "legacy data kept; reported " + (codes.isEmpty ? "migration failed" : codes) + matrixNote(evidence)))
        }
        return findings
    }

    private static func matrixNote(_ evidence: CellEvidence) -> String {
        let labels = evidence.malformedAttempts.map(\.label)
        return labels.isEmpty
            ? "" : "; each store alone malformed (\(labels.joined(separator: ", "))): kept, reported, the others read back"
    }

    /// One attempt of the matrix: the malformed store untouched and reported, the others read back.
    static func check(_ attempt: MalformedAttempt, _ evidence: CellEvidence) -> [GateFinding] {
        let item = attempt.id
        if let problem = attempt.problem { return [evidence.finding(condition, .unknown, item: item, problem)] }
        for record in attempt.launches {
            if !record.exitedCleanly {
                return [evidence.finding(condition, .fail, item: item, "\(record.stem) \(record.termination)")]
            }
            if record.status == nil {
                return [
                    evidence.finding(
                        condition, .fail, item: item, "\(record.stem) " + (record.statusProblem ?? "wrote no status file"))
                ]
            }
        }
        let newLaunches = attempt.launches.filter { $0.build == evidence.newBuild }
        guard let before = attempt.afterSeed, let after = attempt.afterFirstLaunch,
            let verify = newLaunches.last(where: { $0.mode == .verify })?.status,
            let store = evidence.declarations.old.secret(attempt.label)?.store
        else { return [evidence.finding(condition, .unknown, item: item, "the attempt did not reach the verify launch")] }
        var findings: [GateFinding] = []
        let kept = contents(of: store, in: before)
        if !kept.isEmpty && !kept.isSubset(of: contents(of: store, in: after)) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item, "the malformed \(store.location) of \(attempt.label) was deleted or overwritten"
                ))
        }
        let reported = newLaunches.compactMap(\.status).contains { status in
            status.errors.contains { $0.name == attempt.label }
                || status.items.contains {
                    $0.name == attempt.label
                        && ([.failed, .mismatch].contains($0.result) || ($0.result == .kept && $0.status != 0))
                }
        }
        if !reported {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item, "the new build reported no error for the malformed \(attempt.label)"))
        }
        for label in attempt.seeded where label != attempt.label {
            let read = CellEvidence.item(label, in: verify)
            guard read?.result != .found else { continue }
            findings.append(
                evidence.finding(
                    condition, .fail, item: item, operation: read?.operation, status: read?.status,
                    "the valid \(label) read back as \(read?.result.rawValue ?? "unreported") with \(attempt.label) alone malformed"
                ))
        }
        return findings
    }

    /// What a snapshot holds in the old build's store `store`: a preference's or file's digest, or
    /// the identity (apart from its access group) and digest of a keychain item. Empty for a store
    /// the snapshot does not see (an app group's).
    static func contents(of store: DeclaredStore, in snapshot: DeviceSnapshot) -> Set<String> {
        switch store {
        case .preference(let key, nil): Set([snapshot.preferences[key]].compactMap { $0 })
        case .propertyList(let file, _), .archive(let file, _): Set([snapshot.files[file]].compactMap { $0 })
        case .keychain(let key):
            Set(
                snapshot.keychain.filter {
                    $0.itemClass == key.itemClass && $0.account == key.account
                        && $0.service == (key.service ?? key.server ?? "")
                }.map { "\($0.movableKey)#\($0.digest)" })
        case .preference, .appGroupFile: []
        }
    }
}
