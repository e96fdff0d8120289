import Foundation
import GateModel
import SimRuntime
import SimSecurity

/// Judges an exploration attempt's record (``AttemptRecord``) against the invariants of docs/architecture.md ("Exploration invariants"):
/// (I1) every seeded secret is in the new item or the legacy location, never neither; (I2) what a
/// status file reported written exists; (I3) after a clean run the legacy plaintext is gone; (I4)
/// another launch changes nothing; (I6) a crash during recovery still satisfies I1; (I7) every
/// launch after the recovery finds, in the app's own startup read, each secret the old build's
/// startup read found (the user is still signed in). After recovery the verify launch must read
/// every seeded secret, and every launch passes the cell's per-launch checkers (``LaunchChecker``:
/// honest-status). The outcome is the attempt of attempts.json, which crash-safe,
/// locked-launch-safe, reads-old-data, stays-signed-in and honest-status report on
/// (``CellEvidence/explorationFindings(_:)``).
enum ExplorationInvariants {
    /// The judged attempt of `record` in `cell` (the case's builds declaring what each secret's
    /// items are; its per-launch checkers judging every launch of the attempt).
    static func judge(_ record: AttemptRecord, in cell: CellContext) -> ExplorationAttempt {
        let declarations = cell.declarations
        var attempt = ExplorationAttempt(id: record.id)
        attempt.coveredBy = record.coveredBy
        attempt.log = record.log
        if let seeded = record.seeded {
            if seeded.isEmpty { attempt.unknown("the old build's seed launch reported no secret written") }
            var powerLoss = PowerLossContext()
            for step in record.steps {
                powerLoss.observe(step)
                judge(step, seeded: seeded, declarations: declarations, powerLoss: powerLoss, &attempt)
            }
        }
        if let reason = record.stopped {
            attempt.unknown("the attempt stopped: \(reason)")
        } else {
            for launch in record.launches {
                for checker in cell.checkers {
                    for problem in checker.problems(launch, in: cell) {
                        attempt.fail(checker.condition, "\(launch.stem): \(problem)")
                    }
                }
            }
        }
        // A launch killed at --timeout leaves the attempt unjudgeable: unknown, whatever else it showed.
        if let slow = record.launches.first(where: \.timedOut) { attempt.timedOut(slow.timeoutReason) }
        if record.interrupted { attempt.interrupted() }
        return attempt
    }

    private static func judge(
        _ step: AttemptRecord.Step, seeded: [String], declarations: CaseDeclarations, powerLoss: PowerLossContext,
        _ attempt: inout ExplorationAttempt
    ) {
        switch step {
        case .launch(let launch, let condition):
            if launch.timedOut {
                attempt.unknown(launch.timeoutReason)
            } else if !launch.exitedCleanly {
                attempt.fail(condition, "\(launch.stem) \(launch.termination)")
                attempt.log += ExplorationAttempt.excerpt(launch)
            } else if launch.status == nil {
                attempt.fail(condition, "\(launch.stem) wrote no status file")
            }
        case .planned(let launch):
            if launch.mutations.isEmpty {
                attempt.unknown(
                    "\(launch.stem) logged no store operation: the seam did not record, so nothing could be explored")
            }
        case .located(let places, let when, let crashed):
            for label in seeded where places[label, default: []].isEmpty {
                // Right after a power loss, the reason names its point already.
                let reason =
                    crashed.flatMap { lossAtCrash(label, $0, declarations) }
                    ?? "I1 \(label): in neither the keychain nor a legacy store \(when)"
                attempt.fail(.crashSafe, reason + powerLoss.explanation(namingPoint: crashed == nil))
            }
        case .signedIn(let launches, let baseline, let source):
            for launch in launches {
                guard let startup = launch.status?.startup else { continue }
                for label in baseline.sorted() {
                    let read = startup.first { $0.name == label }
                    guard read?.result != .found else { continue }
                    let got = read.map { "read it \($0.result.rawValue) (\($0.status))" } ?? "did not read it"
                    attempt.fail(.staysSignedIn, "I7 \(label): \(launch.stem) after the recovery \(got); \(source) found it")
                }
            }
        case .itemsAfterRecovery(let items, let recovery):
            // An item the status names is found by the new build's declaration of that label; an
            // undeclared one by the account it is named after.
            for item in recovery.status?.items ?? [] where item.location == .keychain && item.result == .written {
                let present =
                    if let declared = declarations.newKeychainItem(item.name) {
                        items.contains { CaseDeclarations.matches(declared, $0) }
                    } else {
                        items.contains { $0.account == item.name }
                    }
                if !present {
                    attempt.fail(.crashSafe, "I2 \(item.name): reported written by \(recovery.stem) but not in the keychain")
                }
            }
        case .relaunched(let before, let after):
            let changes = CellEvidence.differences(before, after)
            if !changes.isEmpty {
                attempt.fail(.crashSafe, "I4 another launch changed the store: " + changes.joined(separator: "; "))
            }
        case .verified(let verify):
            guard let status = verify.status else { return }
            for label in seeded {
                let result = CellEvidence.item(label, in: status)
                if result?.result != .found {
                    attempt.fail(
                        .readsOldData,
                        "\(label): read back as \(result?.result.rawValue ?? "unreported") after recovery"
                            + (result.map { " (\($0.operation) \(SecurityStatus($0.status)) on \($0.runtime))" } ?? ""))
                }
            }
        case .settled(let places, let migration):
            guard let migration, [MigrationState.migrated, .upToDate].contains(migration) else { return }
            for label in seeded where places[label, default: []].contains(.legacy) {
                attempt.fail(
                    .crashSafe,
                    "I3 \(label): legacy plaintext still present after a clean run" + powerLoss.explanation(namingPoint: true))
            }
        case .holders(let holders, let migration):
            guard let migration, [MigrationState.migrated, .upToDate].contains(migration) else { return }
            for label in seeded {
                let items = holders[label, default: []]
                guard items.count > 1 else { continue }
                attempt.fail(
                    .crashSafe,
                    "\(label): a duplicate after a clean run, held by \(items.count) keychain items (\(items.joined(separator: ", ")))"
                )
            }
        case .unjudgeable(let reason):
            attempt.unknown(reason)
        }
    }

    /// `I1 apiToken: preferences.write of apiToken (mutation 1) came before any keychain write of
    /// it; a crash there leaves it in neither place` (for a file call of the app's own: `I1
    /// refreshToken: Library/Application Support/account.archive: unlink (mutation 3) came before any
    /// keychain write of refreshToken; ...`), when the crash followed a mutation of the lost
    /// item itself; else the mutation the crash followed. Nil when the launch logged no mutation.
    static func lossAtCrash(_ label: String, _ crashed: LaunchRecord, _ declarations: CaseDeclarations) -> String? {
        guard let lastIndex = crashed.mutations.lastIndex(where: { $0.mutation != nil }),
            let point = crashed.mutations[lastIndex].mutation
        else { return nil }
        let last = crashed.mutations[lastIndex]
        let end = crashed.faultPlan.powerLoss ? "a power loss" : "a crash"
        let owner = declarations.label(of: last.subject)
        // A file call of the app's own is named as the app made it: `Library/.../account.archive: unlink (mutation 3)`.
        let what =
            last.operation.isFileSystemCall
            ? "\(last.subject.name ?? "")\(last.subject.target.map { " -> " + $0 } ?? ""): \(last.operation.rawValue.dropFirst(3)) (mutation \(point))"
            : "\(last.operation.rawValue) of \(owner ?? (names(last.subject).isEmpty ? last.subject.store : names(last.subject))) (mutation \(point))"
        let it = last.operation.isFileSystemCall ? label : "it"
        guard owner == label else {
            return "I1 \(label): in neither the keychain nor a legacy store after \(end) right after \(what)"
        }
        let keychainWrite = crashed.mutations[..<lastIndex].contains { entry in
            entry.operation.isKeychain && entry.operation.isMutating && entry.status == 0
                && entry.injected == nil && declarations.label(of: entry.subject) == label
        }
        return keychainWrite
            ? "I1 \(label): \(what) left it in neither place, though a keychain write of \(it) came first (was it read back?)"
            : "I1 \(label): \(what) came before any keychain write of \(it); \(end) there leaves it in neither place"
    }

    /// The last power loss of an attempt, and the launches made since: what explains a secret
    /// missing at a checkpoint after it (the sets and unsynced data it took, the items a recovery
    /// launch then deleted). Facts from the launches' logs, names only.
    struct PowerLossContext {
        private var loss: LaunchRecord?
        private var since: [LaunchRecord] = []

        mutating func observe(_ step: AttemptRecord.Step) {
            switch step {
            case .located(_, _, let crashed?) where crashed.faultPlan.powerLoss:
                loss = crashed
                since = []
            case .launch(let launch, _) where loss != nil:
                since.append(launch)
            default:
                break
            }
        }

        /// `; the power loss right after mutation 8 (SecItemAdd genp com.example.ledger/vault.schemaVersion) took the
        /// launch's preference sets (authToken, vault.installMarker), then 03-v2-launch ran SecItemDelete on genp, inet`
        /// (without the point unless `namingPoint`); empty when the attempt lost no power.
        func explanation(namingPoint: Bool) -> String {
            guard let loss else { return "" }
            var text = "; the power loss"
            if namingPoint, let last = loss.mutations.last(where: { $0.mutation != nil }), let point = last.mutation {
                text +=
                    " right after mutation \(point) (\(last.operation.rawValue) \(ExplorationInvariants.describe(last.subject)))"
            }
            let lost = loss.lostToPowerLoss
            let sets = lost.filter { $0.store == "preferences" }.compactMap(\.name)
            let files = lost.filter { $0.store == "file" }.compactMap(\.name)
            var took: [String] = []
            if !sets.isEmpty { took.append("the launch's preference sets (\(sets.joined(separator: ", ")))") }
            if !files.isEmpty { took.append("the unsynced data of \(files.joined(separator: ", "))") }
            text += " took " + (took.isEmpty ? "nothing" : took.joined(separator: " and "))
            for launch in since {
                let deleted = launch.mutations.filter { $0.operation == .secItemDelete && $0.mutation != nil }
                guard !deleted.isEmpty else { continue }
                text +=
                    ", then \(launch.stem) ran SecItemDelete on "
                    + deleted.map { ExplorationInvariants.describe($0.subject) }.joined(separator: ", ")
            }
            return text
        }
    }

    /// `genp com.example.ledger/authToken`; a class alone for a delete of a whole class.
    static func describe(_ subject: SeamSubject) -> String {
        let key = names(subject)
        return subject.store + (key.isEmpty ? "" : " " + key)
    }

    private static func names(_ subject: SeamSubject) -> String {
        [subject.service, subject.account, subject.name].compactMap { $0 }.joined(separator: "/")
    }
}
