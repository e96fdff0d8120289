import Foundation
import GateModel
import SimDevice
import SimRuntime

/// What running one (path, scenario) cell left for the checkers: its launches, named device
/// snapshots and the facts a scenario adds. Names, digests and statuses only; never a value.
struct CellEvidence: Sendable {
    let unit: PlanUnit
    let runtime: RuntimeVersion
    let caseID: String
    /// What the cell's builds keep where (their labels are the secrets' names everywhere below).
    var declarations = CaseDeclarations.none
    var launches: [LaunchRecord] = []
    /// Snapshots by moment.
    var snapshots: [Moment: DeviceSnapshot] = [:]
    /// The old build's declared secrets that its seed launch reported written.
    var seeded: [String] = []
    /// Scenario-specific facts, such as the entitlements diff.
    var entitlementsVerdict: Int32?
    var entitlementsSummary: String?
    /// Whether the new build declares a cleanup window for legacy artefacts.
    var artefactWindowDays: Int?
    /// The attempts of an exploration scenario (crash points, faults, locked launches).
    var attempts: [ExplorationAttempt] = []
    /// What the exploration covered: counts, and the sample size where pairs were sampled.
    var explorationNote: String?
    /// The clock-shifted verify of an upgrade or skip-version cell (honest-status).
    var clockShift: ClockShift?
    /// malformed: the matrix's attempts, one per store the old build's malformed seed malforms.
    var malformedAttempts: [MalformedAttempt] = []
    /// locked-reads: where each seeded secret was kept before the upgrade and is kept after it.
    var availability: [AvailabilityFact] = []
    /// The lock state of each launch (by its index) that did not run unlocked.
    var lockStates: [Int: LockState] = [:]
    /// Set when the scenario could not be carried out (a device error): every condition is UNKNOWN.
    var aborted: String?

    var path: String { unit.pathID }
    var scenario: Scenario { unit.scenario }

    /// The launches of `build` in `mode`, in order.
    func launches(of build: String, _ mode: LaunchMode) -> [LaunchRecord] {
        launches.filter { $0.build == build && $0.mode == mode }
    }

    /// A finding on this cell.
    func finding(
        _ condition: GateCondition, _ verdict: Verdict, item: String? = nil, operation: String? = nil,
        status: Int32? = nil, _ detail: String
    ) -> GateFinding {
        GateFinding(
            condition, path: path, scenario: scenario, item: item, verdict: verdict, operation: operation,
            status: status, runtime: status == nil ? nil : runtime, detail: detail,
            message: GateFinding.describe(
                item: item, operation: operation, status: status, runtime: status == nil ? nil : runtime, detail: detail,
                statusText: GateFinding.statusText))
    }

    /// Findings for `condition` from the exploration attempts: a FAIL per failed attempt that
    /// concerns it (its reasons and the store operations around the failure), an UNKNOWN per attempt
    /// that could not be judged, else one PASS that says what was explored.
    func explorationFindings(_ condition: GateCondition, counting conditions: Set<GateCondition>) -> [GateFinding] {
        guard !attempts.isEmpty else { return [finding(condition, .unknown, "nothing was explored")] }
        var findings: [GateFinding] = []
        for attempt in attempts {
            var mine = zip(attempt.reasons, attempt.conditions).filter { conditions.contains($0.1) }.map(\.0)
            // An attempt that could not be judged leaves every condition of the cell unproven.
            if mine.isEmpty && attempt.outcome == .unknown { mine = attempt.reasons }
            guard !mine.isEmpty else { continue }
            let log = attempt.log.isEmpty ? "" : " | around it: " + attempt.log.joined(separator: "; ")
            let failedHere =
                zip(attempt.reasons, attempt.conditions).contains { conditions.contains($0.1) }
                && attempt.outcome == .failed
            let verdict: Verdict = failedHere ? .fail : .unknown
            findings.append(finding(condition, verdict, item: attempt.id, mine.joined(separator: "; ") + log))
        }
        if findings.isEmpty {
            let note = explorationNote.map { "\($0); " } ?? ""
            findings.append(finding(condition, .pass, "\(note)all \(attempts.count) attempts ok"))
        }
        return findings
    }

    /// A FAIL when the old build's seed launch reported none of the case's secrets written: a
    /// condition about what happened to old data proves nothing without it.
    func nothingSeeded(_ condition: GateCondition) -> GateFinding? {
        seeded.isEmpty ? finding(condition, .fail, "the old build's seed launch reported no secret written") : nil
    }

    /// FAIL findings for launches that did not end cleanly or left no readable status file, or
    /// nil when every launch did.
    func launchProblems(_ condition: GateCondition, among records: [LaunchRecord]? = nil) -> [GateFinding]? {
        var problems: [GateFinding] = []
        for record in records ?? launches {
            if !record.exitedCleanly {
                problems.append(finding(condition, .fail, item: record.stem, "the launch \(record.termination)"))
            } else if let problem = record.statusProblem {
                problems.append(finding(condition, .fail, item: record.stem, problem))
            } else if record.status == nil {
                problems.append(finding(condition, .fail, item: record.stem, "the launch wrote no status file"))
            }
        }
        return problems.isEmpty ? nil : problems
    }
}

/// The named moments of a cell at which its device is snapshotted: what a scenario records and its
/// checkers compare. A new moment is a new case here, so a checker cannot ask for one no scenario takes.
enum Moment: String, CaseIterable, Sendable {
    case afterCleanup = "after-cleanup"
    case afterDataRemoved = "after-data-removed"
    case afterFinalRelaunch = "after-final-relaunch"
    case afterFirstLaunch = "after-first-launch"
    case afterRelaunch1 = "after-relaunch-1"
    case afterRelaunch2 = "after-relaunch-2"
    case afterSecondLaunch = "after-second-launch"
    case afterSeed = "after-seed"
    case beforeCase = "before-case"
    case beforeCleanup = "before-cleanup"
    case beforeFinalRelaunch = "before-final-relaunch"
    case beforeReinstall = "before-reinstall"
    case day29 = "day-29"
    case day31 = "day-31"
    case neighbourAfter = "neighbour-after"
    case neighbourBefore = "neighbour-before"

    /// What the shared steps record on every upgrade path: ``CellRunner/seed(_:_:mode:caseID:hops:)``
    /// and ``CellRunner/upgrade(_:_:)``.
    static let upgraded: Set<Moment> = [.afterSeed, .afterFirstLaunch]
    /// What ``CellRunner/finalReread(_:_:)`` records.
    static let finalReread: Set<Moment> = [.beforeFinalRelaunch, .afterFinalRelaunch]
}
