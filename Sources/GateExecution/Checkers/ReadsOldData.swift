import GateModel
import SimRuntime

/// reads-old-data: every secret the old build (a route's first build) seeded is still on the
/// device where the new build can reach it (the runner looks for its bytes: ground truth first),
/// and every verify launch of the new build reads it back.
///
/// What each must read as: `found` (upgrade, skip-version, relaunch, artefact-window after the
/// window, and isolation and cleanup before the test's cleanup); `missing` where the scenario's point
/// is removal: after marker-without-data removed the keychain data (a secret the new build keeps in
/// a file or a preference is untouched there, and must read `found`), after a reinstall (the old session is
/// gone), and after the test's cleanup launch (isolation, cleanup: the case's items are removed).
/// A scenario that changes the device after the upgrade ends with such a verify launch (the final
/// re-read, ``Scenario/changesStateAfterUpgrade``), so a build that loses a secret on a later launch
/// fails here. No launch may crash. Where a secret must read `found`, the device is judged first: a
/// secret in neither a keychain item the new build can reach nor a legacy store after that verify
/// launch is lost, whatever the app reports (honest-status judges the report itself). The verify
/// launch upgrade and skip-version repeat with the clock moved is honest-status's, not judged here.
enum ReadsOldData: CellChecker {
    static let condition = GateCondition.readsOldData

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if evidence.scenario == .writeFailure {
            return evidence.explorationFindings(condition)
        }
        if let problems = evidence.launchProblems(condition) { return problems }
        let verifies = expectations(evidence)
        guard !verifies.isEmpty, verifies.allSatisfy({ $0.record.status != nil }) else {
            return [evidence.finding(condition, .unknown, "the new build was not launched to verify")]
        }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        var findings: [GateFinding] = []
        for (record, wanted, when) in verifies {
            let status = record.status!
            let suffix = verifies.count > 1 ? " (\(record.stem), \(when))" : ""
            for label in evidence.seeded {
                // A build that keeps credentials across a reinstall (its declared policy) reads the keychain's back.
                // marker-without-data removes keychain data only: what the new build keeps in a file is still there.
                let wanted =
                    evidence.scenario.reinstalls
                    ? evidence.declarations.keptAcrossReinstall(label) ?? wanted
                    : evidence.scenario == .markerWithoutData
                        ? evidence.declarations.keptOutsideKeychain(label) ?? wanted
                        : wanted
                if wanted == .found && (record.secretPlaces?[label] ?? []).isEmpty {
                    let reported = CellEvidence.item(label, in: status)
                    findings.append(
                        evidence.finding(
                            condition, .fail, item: label, operation: reported?.operation, status: reported?.status,
                            "on the device in neither a keychain item the new build can reach nor a legacy store"
                                + (reported.map { " (the verify launch reported it \($0.result) from \($0.location))" } ?? "")
                                + suffix, key: FindingKey(label, in: .secret, .lost)))
                    continue
                }
                guard let item = CellEvidence.item(label, in: status) else {
                    findings.append(
                        evidence.finding(
                            condition, .fail, item: label, "the verify launch does not report this item" + suffix,
                            key: FindingKey(label, in: .secret, .unreported)))
                    continue
                }
                if item.result != wanted {
                    findings.append(
                        evidence.finding(
                            condition, .fail, item: label, operation: item.operation, status: item.status,
                            (wanted == .missing
                                ? "reported \(item.result) \(when) (expected missing)"
                                : "read back as \(item.result) from \(item.location)") + suffix,
                            key: FindingKey(label, in: .secret, .wrongResult)))
                }
            }
        }
        if findings.isEmpty {
            let kept = verifies.filter { $0.wanted == .found }.count
            let removed = verifies.count - kept
            var words: [String] = []
            if kept > 0 {
                words.append("every seeded item (\(evidence.seeded.joined(separator: ", "))) reads back")
            }
            if removed > 0 && evidence.scenario.reinstalls && evidence.declarations.keepsCredentials {
                words.append(
                    "each seeded item reads as the reinstall kept it (keeps-credentials: the keychain's, not the container's)")
            } else if removed > 0 {
                let outside =
                    evidence.scenario == .markerWithoutData
                    ? evidence.seeded.filter { evidence.declarations.keptOutsideKeychain($0) != nil } : []
                if outside.isEmpty {
                    words.append("the \(evidence.seeded.count) removed items are reported missing")
                } else {
                    words.append(
                        "the \(evidence.seeded.count - outside.count) removed items are reported missing, and what the new"
                            + " build keeps outside the keychain (\(outside.joined(separator: ", "))) reads back")
                }
            }
            // One verify launch keeps the words (and gate.json's bytes) of the gate before the final re-read.
            let detail =
                verifies.count == 1
                ? words[0] + (removed > 0 ? "; no launch crashed" : "")
                : words.joined(separator: "; ") + " in \(verifies.count) verify launches; no launch crashed"
            findings.append(evidence.finding(condition, .pass, detail))
        }
        return findings
    }

    /// Each verify launch of the new build (reinstall-self: after the reinstall), with what the seeded secrets must read as there and why.
    static func expectations(_ evidence: CellEvidence) -> [(record: LaunchRecord, wanted: ItemResult, when: String)] {
        var cleanedUp = false
        var result: [(LaunchRecord, ItemResult, String)] = []
        let firstJudged = evidence.reinstallSelf?.firstAfterReinstall ?? 0
        for record in evidence.launches where record.build == evidence.newBuild && record.index >= firstJudged {
            if record.mode == .cleanup { cleanedUp = true }
            guard record.mode == .verify else { continue }
            if let removal = evidence.scenario.steps.removal {
                result.append((record, removal.wanted, removal.when))
            } else {
                result.append(
                    cleanedUp ? (record, .missing, "after the test's cleanup") : (record, .found, "after the upgrade"))
            }
        }
        return result
    }
}
