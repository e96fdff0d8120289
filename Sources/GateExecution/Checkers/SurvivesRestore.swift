import GateModel
import SimRuntime

/// survives-restore: after the old build's data is backed up and restored onto a new device (iOS's
/// rules: keychain items by protection class, files and preferences by their backup rules; see
/// ``BackupRestoreSteps``), the new build, installed there, reads back every secret that travelled.
///
/// - A secret the old build kept where a backup takes it (a keychain item of a class that is not
///   ThisDeviceOnly, synchronizable or not; a preference or a file outside Library/Caches and tmp,
///   not excluded from backup) must be on the restored device where the new build reaches it after
///   its first launch (ground truth), and the verify launch must read it `found`. A migration that
///   wipes the store because a device-bound item did not come along, or that stops at the first
///   missing item, fails here.
/// - A secret kept only where nothing travels is not required: its absence is what a restore onto a
///   new phone gives. But no launch may crash or end without a status file because of it (the
///   launches are the new build's own first launch and its verify).
enum SurvivesRestore: CellChecker {
    static let condition = GateCondition.survivesRestore

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        // The seed's launch too: a restore proves nothing of data that was never seeded.
        if let problems = evidence.launchProblems(condition) { return problems }
        guard let facts = evidence.restore, let verify = evidence.verifyLaunch, let status = verify.status else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the verify launch on the restored device")]
        }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        var findings: [GateFinding] = []
        let travelled = evidence.seeded.filter(facts.travelled.contains)
        let stayed = evidence.seeded.filter { !facts.travelled.contains($0) }
        for label in travelled {
            let reported = CellEvidence.item(label, in: status)
            if (verify.secretPlaces?[label] ?? []).isEmpty {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: label, operation: reported?.operation, status: reported?.status,
                        "travelled in the backup, but after the new build's launch on the restored device it is in neither a"
                            + " keychain item the new build can reach nor a legacy store"
                            + (reported.map { " (the verify launch reported it \($0.result))" } ?? ""),
                        key: FindingKey(label, in: .secret, .lost)))
            } else if let reported, reported.result != .found {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: label, operation: reported.operation, status: reported.status,
                        "travelled in the backup, but the verify launch on the restored device read it as \(reported.result) from \(reported.location)",
                        key: FindingKey(label, in: .secret, .wrongResult)))
            } else if reported == nil {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: label, "travelled in the backup; the verify launch does not report this item",
                        key: FindingKey(label, in: .secret, .unreported)))
            }
        }
        // backup-after-migration: what the old build kept device-bound must not start to travel.
        for started in facts.startedToTravel where evidence.seeded.contains(started.label) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: started.label,
                    "the old build kept it device-bound in \(started.oldPlace); after the new build's first launch it "
                        + "travelled in a backup to another device (a session cloned onto a new phone): keep it in a "
                        + "ThisDeviceOnly class",
                    key: FindingKey(started.label, in: .secret, .changed)))
        }
        if !facts.newIdentity {
            findings.append(evidence.finding(condition, .unknown, "the restored device has the backed-up device's identity"))
        }
        if findings.isEmpty {
            var words = [
                travelled.isEmpty
                    ? "no seeded secret travelled"
                    : "every secret that travelled reads back (\(travelled.joined(separator: ", ")))"
            ]
            if !stayed.isEmpty {
                words.append("not required, kept where no backup takes it: \(stayed.joined(separator: ", "))")
            }
            words.append(
                "\(facts.keychainItems) keychain item(s) restored, \(facts.keychainItemsLeftBehind) left behind (ThisDeviceOnly),"
                    + " \(facts.leftOut) path(s) left out; every launch completed")
            findings.append(evidence.finding(condition, .pass, words.joined(separator: "; ")))
        }
        return findings
    }
}
