import Foundation
import GateModel
import SimRuntime

/// A gate condition's check of one cell's evidence.
protocol CellChecker {
    static var condition: GateCondition { get }
    /// Findings for the cell; a checker returns at least one (PASS, FAIL or UNKNOWN) when it applies.
    static func check(_ evidence: CellEvidence) -> [GateFinding]
}

/// A condition judged on each launch of a cell by itself, from its ``LaunchRecord`` (honest-status).
/// It sees every launch of the cell: the cell's own (``launchFailures(_:)``) and each exploration
/// attempt's, which ``ExplorationInvariants`` judges with ``CellJudge/launchCheckers(_:)``. A new
/// one is a checker of this kind in its own file and a case of ``CellJudge/checker(for:)``.
protocol LaunchChecker: CellChecker {
    /// What is wrong with `launch`, one line each; empty when nothing is.
    static func problems(_ launch: LaunchRecord, in cell: CellContext) -> [String]
}

extension LaunchChecker {
    /// A FAIL per problem of each of the cell's launches (an exploration cell's are in its attempts:
    /// ``CellEvidence/explorationFindings(_:)``).
    static func launchFailures(_ evidence: CellEvidence) -> [GateFinding] {
        let cell = CellContext(unit: evidence.unit, declarations: evidence.declarations)
        return evidence.launches.flatMap { record in
            problems(record, in: cell).map { evidence.finding(condition, .fail, item: record.stem, $0) }
        }
    }
}

/// What a per-launch check knows of the cell besides the launch.
struct CellContext {
    /// What the cell's builds keep where.
    let declarations: CaseDeclarations
    /// The build launched after the upgrade (the only one on a fresh install).
    let newBuild: String
    /// The per-launch checkers of the cell's conditions (``CellJudge/launchCheckers(_:)``).
    let checkers: [any LaunchChecker.Type]

    init(unit: PlanUnit, declarations: CaseDeclarations) {
        self.init(declarations: declarations, newBuild: unit.path.new, checkers: CellJudge.launchCheckers(unit))
    }

    init(declarations: CaseDeclarations, newBuild: String, checkers: [any LaunchChecker.Type]) {
        self.declarations = declarations
        self.newBuild = newBuild
        self.checkers = checkers
    }
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
        case .staysSignedIn: StaysSignedIn.self
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
        case .keepsProtection: KeepsProtection.self
        case .survivesRestore: SurvivesRestore.self
        case .honestStatus: HonestStatus.self
        case .noSecretInArtifacts: nil
        }
    }

    /// The checkers among `unit`'s conditions that judge each launch on its own.
    static func launchCheckers(_ unit: PlanUnit) -> [any LaunchChecker.Type] {
        unit.cells.compactMap { checker(for: $0.condition) as? any LaunchChecker.Type }
    }

    static func judge(_ evidence: CellEvidence) -> [GateFinding] {
        evidence.unit.cells.map(\.condition).filter { $0 != .noSecretInArtifacts }.flatMap { condition -> [GateFinding] in
            if let reason = evidence.aborted { return [evidence.finding(condition, .unknown, reason)] }
            guard let checker = checker(for: condition) else {
                return [evidence.finding(condition, .unknown, "condition \(condition) is not judged per cell")]
            }
            let findings = evidence.judgedPerVariant(condition, by: checker)
            if findings.isEmpty { return [evidence.finding(condition, .unknown, "the checker found nothing to judge")] }
            return Self.timedOutAsUnknown(findings, evidence)
        }
    }

    /// A cell one of whose launches the runner killed at `--timeout` has incomplete evidence: what a
    /// slow machine did is no finding about the app, so its FAILs become UNKNOWN, naming the launch
    /// (the verdict still fails closed). Load never turns a PASS into a FAIL this way.
    static func timedOutAsUnknown(_ findings: [GateFinding], _ evidence: CellEvidence) -> [GateFinding] {
        guard let slow = evidence.launches.first(where: \.timedOut) else { return findings }
        return findings.map { finding in
            guard finding.verdict == .fail else { return finding }
            var unknown = finding
            unknown.verdict = .unknown
            unknown.message += "; " + slow.timeoutReason
            return unknown
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
