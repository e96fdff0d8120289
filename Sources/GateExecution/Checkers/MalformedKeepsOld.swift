import GateModel
import SimRuntime

/// malformed-keeps-old: with malformed legacy data (a corrupt archive, wrong types, non-UTF-8), the
/// new build does not crash, leaves every legacy store's content as it was (preferences, files, its
/// app groups' files and preferences, and the bytes of the old build's keychain items, under any
/// identity), and reports an error code (in its launch or its
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
        // A preference the builds declare as bookkeeping (a schema marker) is not legacy data, as the
        // keychain's bookkeeping items below are not; a group's is named `<group>/<key>`.
        let declarations = evidence.declarations
        let stores: [(String, FindingStore, [String: String], [String: String], (String) -> Bool)] = [
            (
                "preference", .preference, before.preferences, after.preferences,
                { declarations.isBookkeepingPreference($0, suite: nil) }
            ),
            ("file", .file, before.files, after.files, { _ in false }),
            ("app group file", .appGroupFile, before.groupFiles, after.groupFiles, { _ in false }),
            (
                "app group preference", .appGroupPreference, before.groupPreferences, after.groupPreferences,
                { name in
                    let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
                    return parts.count == 2 && declarations.isBookkeepingPreference(parts[1], suite: parts[0])
                }
            ),
        ]
        for (kind, store, old, new, isBookkeeping) in stores {
            for (name, digest) in old.sorted(by: { $0.key < $1.key }) where new[name] != digest && !isBookkeeping(name) {
                let loss: FindingKind = new[name] == nil ? .deleted : .overwritten
                findings.append(
                    evidence.finding(
                        condition, .fail, item: name, "legacy \(kind) \(loss)", key: FindingKey(name, in: store, loss)))
            }
        }
        // Keychain items are judged by content: each legacy item's bytes must still be in some
        // keychain item. A build may rename one (a new service, account or server, an internet
        // password's port), re-save it under a new protection class or move it into another access
        // group, but must not drop or rewrite what it could not read. Migration markers (the schema
        // version) are bookkeeping, not legacy data.
        let contents = Set(after.keychain.map(\.digest))
        let kept = Dictionary(after.keychain.map { ($0.key, $0.digest) }, uniquingKeysWith: { first, _ in first })
        for item in before.keychain where !item.bookkeeping && !contents.contains(item.digest) {
            let loss: FindingKind = kept[item.key] == nil ? .deleted : .overwritten
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.key, "legacy keychain item \(loss)",
                    key: FindingKey(item.key, in: .keychain, loss)))
        }
        let reports = [launch, verify].flatMap { status in
            status.errors + status.items.filter { [.failed, .mismatch].contains($0.result) }
        }
        if launch.migration?.state != .failed && reports.isEmpty {
            findings.append(
                evidence.finding(
                    condition, .fail, "the new build reported no error for malformed input",
                    key: FindingKey(evidence.seeded.sorted().joined(separator: ", "), in: .secret, .notReported)))
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
        let labels = evidence.malformedAttempts.map { $0.labels.joined(separator: "+") }
        return labels.isEmpty
            ? "" : "; each store alone malformed (\(labels.joined(separator: ", "))): kept, reported, the others read back"
    }

    /// One attempt of the matrix: the malformed store untouched and reported, the others read back.
    static func check(_ attempt: MalformedAttempt, _ evidence: CellEvidence) -> [GateFinding] {
        let item = attempt.id
        if let problem = attempt.problem { return [evidence.finding(condition, .unknown, item: item, problem)] }
        for record in attempt.launches {
            if record.timedOut { return [evidence.finding(condition, .unknown, item: item, record.timeoutReason)] }
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
        if !kept.isEmpty && !kept.isSubset(of: contents(of: store, in: after, anyKeychainItem: true)) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item,
                    "the malformed \(store.location) of \(attempt.labels.joined(separator: ", ")) was deleted or overwritten",
                    key: FindingKey(item, in: .secret, .overwritten)))
        }
        // One report for the file is enough when several secrets share it.
        let reported = newLaunches.compactMap(\.status).contains { status in
            status.errors.contains { attempt.labels.contains($0.name) }
                || status.items.contains {
                    attempt.labels.contains($0.name)
                        && ([.failed, .mismatch].contains($0.result) || ($0.result == .kept && $0.status != 0))
                }
        }
        if !reported {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item,
                    "the new build reported no error for the malformed \(attempt.labels.joined(separator: ", "))",
                    key: FindingKey(item, in: .secret, .notReported)))
        }
        for label in attempt.seeded where !attempt.labels.contains(label) {
            let read = CellEvidence.item(label, in: verify)
            guard read?.result != .found else { continue }
            findings.append(
                evidence.finding(
                    condition, .fail, item: item, operation: read?.operation, status: read?.status,
                    "the valid \(label) read back as \(read?.result.rawValue ?? "unreported") with \(attempt.id) malformed",
                    key: FindingKey("\(label) with \(item) malformed", in: .secret, .wrongResult)))
        }
        return findings
    }

    /// What a snapshot holds in the old build's store `store`: a preference's or file's digest (an
    /// app group's too), or the digest of each keychain item with the declared identity apart from
    /// its access group. `anyKeychainItem`: the digests of every keychain item instead, for the
    /// snapshot after the migration, where the bytes may sit under a new identity (content, not
    /// identity).
    static func contents(of store: DeclaredStore, in snapshot: DeviceSnapshot, anyKeychainItem: Bool = false) -> Set<String> {
        switch store {
        case .preference(let key, nil): Set([snapshot.preferences[key]].compactMap { $0 })
        case .preference(let key, let suite?): Set([snapshot.groupPreferences[suite + "/" + key]].compactMap { $0 })
        case .propertyList(let file, _), .archive(let file, _), .json(let file, _, nil):
            Set([snapshot.files[file]].compactMap { $0 })
        case .appGroupFile(let group, let file), .groupPropertyList(let group, let file, _), .json(let file, _, let group?):
            Set([snapshot.groupFiles[group + "/" + file]].compactMap { $0 })
        case .keychain where anyKeychainItem: Set(snapshot.keychain.map(\.digest))
        case .keychain(let key):
            Set(
                snapshot.keychain.filter {
                    $0.itemClass == key.itemClass && $0.account == key.account
                        && $0.service == (key.service ?? key.server ?? "")
                }.map(\.digest))
        }
    }
}
