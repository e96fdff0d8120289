import Foundation
import GateModel
import SimRuntime

/// A gate condition's check of one cell's evidence.
protocol CellChecker {
    static var condition: GateCondition { get }
    /// Findings for the cell; a checker returns at least one (PASS, FAIL or UNKNOWN) when it applies.
    static func check(_ evidence: CellEvidence) -> [GateFinding]
}

/// Judges a cell: each condition its unit checks (its scenario's, and honest-status on every launch;
/// not the leak scan, which runs over the whole output folder at the end) by its checker. A cell that could not be carried out leaves its
/// conditions UNKNOWN.
enum CellJudge {
    /// The checker of each condition a cell judges (the leak scan's is NoSecretInArtifactsChecker,
    /// run over the whole output folder).
    static func checker(for condition: GateCondition) -> (any CellChecker.Type)? {
        switch condition {
        case .readsOldData: ReadsOldData.self
        case .idempotent: Idempotent.self
        case .malformedKeepsOld: MalformedKeepsOld.self
        case .crashSafe: CrashSafe.self
        case .lockedLaunchSafe: LockedLaunchSafe.self
        case .reinstallSweeps: ReinstallSweeps.self
        case .noFalsePass: NoFalsePass.self
        case .entitlementsCompatible: EntitlementsCompatible.self
        case .isolation: Isolation.self
        case .cleanupExact: CleanupExact.self
        case .artefactWindow: ArtefactWindow.self
        case .keepsAvailability: KeepsAvailability.self
        case .honestStatus: HonestStatus.self
        case .noSecretInArtifacts: nil
        }
    }

    static func judge(_ evidence: CellEvidence) -> [GateFinding] {
        evidence.unit.cells.map(\.condition).filter { $0 != .noSecretInArtifacts }.flatMap { condition -> [GateFinding] in
            if let reason = evidence.aborted { return [evidence.finding(condition, .unknown, reason)] }
            guard let checker = checker(for: condition) else {
                return [evidence.finding(condition, .unknown, "condition \(condition) is not judged per cell")]
            }
            let findings = checker.check(evidence)
            return findings.isEmpty ? [evidence.finding(condition, .unknown, "the checker found nothing to judge")] : findings
        }
    }
}

extension CellEvidence {
    /// The new build's id.
    var newBuild: String { unit.path.new }

    /// The last verify launch of the new build.
    var verifyLaunch: LaunchRecord? { launches(of: newBuild, .verify).last }

    /// The item a status reports under `name`.
    static func item(_ name: String, in status: LaunchStatus) -> ItemCheck? {
        status.items.first { $0.name == name }
    }

    /// Differences between two snapshots, as names only (at most `limit`).
    static func differences(_ before: DeviceSnapshot, _ after: DeviceSnapshot, limit: Int = 5) -> [String] {
        var changes: [String] = []
        let beforeItems = Dictionary(before.keychain.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let afterItems = Dictionary(after.keychain.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        for key in Set(beforeItems.keys).union(afterItems.keys).sorted() where beforeItems[key] != afterItems[key] {
            changes.append(
                "keychain item \(key) " + (afterItems[key] == nil ? "removed" : beforeItems[key] == nil ? "added" : "changed"))
        }
        for (kind, old, new) in [("preference", before.preferences, after.preferences), ("file", before.files, after.files)] {
            for name in Set(old.keys).union(new.keys).sorted() where old[name] != new[name] {
                changes.append("\(kind) \(name) " + (new[name] == nil ? "removed" : old[name] == nil ? "added" : "changed"))
            }
        }
        return Array(changes.prefix(limit)) + (changes.count > limit ? ["and \(changes.count - limit) more"] : [])
    }
}
