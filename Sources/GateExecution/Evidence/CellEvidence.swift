import Foundation
import GateModel
import SimDevice
import SimRuntime

/// What running one (path, scenario) cell left for the checkers: its launches, named device
/// snapshots, what the old build seeded, and the facts its scenario adds (``ScenarioFacts``).
/// Names, digests and statuses only; never a value.
struct CellEvidence: Sendable {
    let unit: PlanUnit
    let runtime: RuntimeVersion
    let caseID: String
    /// What the cell's builds keep where (their labels are the secrets' names everywhere below).
    var declarations = CaseDeclarations.none
    var launches: [LaunchRecord] = []
    /// Each launch and the same launch in the cell's run at a second clock (``ClockTwin``), where
    /// the scenario asks for it; why that run did not finish, when it did not.
    var clockTwins: [ClockTwinPair] = []
    var clockTwinFailure: String?
    /// Whether the cell ran again at a second clock (its scenario asks for it, and the run is not
    /// `--inputs minimal`).
    var secondClock = false
    /// Snapshots by moment.
    var snapshots: [Moment: DeviceSnapshot] = [:]
    /// The old build's declared secrets that its seed launch reported written.
    var seeded: [String] = []
    /// What the cell's scenario adds, typed by scenario (each kind is declared beside its steps).
    var facts = ScenarioFacts.none
    /// The keys (``DeviceSnapshot/Item/key``) of the items the runner planted before a reinstall
    /// (``CellRunner/addSweepTargets(_:_:)``); nil where it planted none, or in evidence made by hand
    /// (then whatever the seed did not write counts as planted).
    var planted: Set<String>?
    /// Set when the scenario could not be carried out (a device error): every condition is UNKNOWN.
    var aborted: String?

    var path: RuntimePath { unit.runtimePath }
    var scenario: Scenario { unit.scenario }

    /// The launches of `build` in `mode`, in order.
    func launches(of build: String, _ mode: LaunchMode) -> [LaunchRecord] {
        launches.filter { $0.build == build && $0.mode == mode }
    }

    /// A finding on this cell.
    func finding(
        _ condition: GateCondition, _ verdict: Verdict, item: String? = nil, operation: String? = nil,
        status: Int32? = nil, _ detail: String, warning: Bool = false, key: FindingKey? = nil, notJudged: Bool = false
    ) -> GateFinding {
        GateFinding(
            condition, path: path, scenario: scenario, item: item, verdict: verdict, operation: operation,
            status: status, runtime: status == nil ? nil : runtime, detail: detail,
            message: GateFinding.describe(
                item: item, operation: operation, status: status, runtime: status == nil ? nil : runtime, detail: detail,
                statusText: GateFinding.statusText), warning: warning, key: key, notJudged: notJudged)
    }

    /// Findings for `condition` from the exploration attempts, as ``ExplorationInvariants`` judged
    /// each: a FAIL per failed attempt with a reason the condition reports (``reports(_:as:)``), with
    /// the store operations around the failure; an UNKNOWN per attempt that could not be judged;
    /// else one PASS that says what was explored.
    func explorationFindings(_ condition: GateCondition) -> [GateFinding] {
        guard let exploration, !exploration.attempts.isEmpty else {
            return [finding(condition, .unknown, "nothing was explored")]
        }
        var findings: [GateFinding] = []
        for attempt in exploration.attempts {
            let reported = attempt.conditions.map { reports($0, as: condition) }
            var mine = zip(attempt.reasons, reported).filter(\.1).map(\.0)
            // An attempt that could not be judged leaves every condition of the cell unproven.
            if mine.isEmpty && attempt.outcome == .unknown { mine = attempt.reasons }
            guard !mine.isEmpty else { continue }
            let log = attempt.log.isEmpty ? "" : " | around it: " + attempt.log.joined(separator: "; ")
            let verdict: Verdict = reported.contains(true) && attempt.outcome == .failed ? .fail : .unknown
            findings.append(finding(condition, verdict, item: attempt.id, mine.joined(separator: "; ") + log))
        }
        if findings.isEmpty {
            findings.append(finding(condition, .pass, "\(exploration.note); all \(exploration.attempts.count) attempts ok"))
        }
        return findings
    }

    /// Whether a reason an attempt gave under `invariant` (the condition of its own invariant, as
    /// attempts.json records it) is reported by the cell's `condition`: by that condition itself
    /// when the cell checks it, else by the scenario's own condition (crash-points' lost read
    /// back is crash-safe's; a locked launch's lost secret is locked-launch-safe's).
    func reports(_ invariant: GateCondition, as condition: GateCondition) -> Bool {
        if invariant == condition { return true }
        return !unit.cells.contains { $0.condition == invariant } && condition == scenario.checks.first
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
            if record.timedOut {
                problems.append(finding(condition, .unknown, item: record.stem, record.timeoutReason))
            } else if !record.exitedCleanly {
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

/// What a scenario's steps add to its cell's evidence for its checkers, beyond the launches,
/// snapshots and seed every cell records: one case per kind, each declared beside the steps that
/// record it (`Scenarios/`, ``Explorer``).
enum ScenarioFacts: Sendable {
    case none
    /// seed-variants: one attempt per store the old build's seed writes without a secret in it.
    case seedVariants([SeedVariant])
    /// crash-points, write-failure, prewarm, locked-background: the judged attempts.
    case exploration(ExplorationFacts)
    /// malformed: the matrix, one attempt per store the old build's malformed seed malforms.
    case malformed([MalformedAttempt])
    /// entitlements: the diff's verdict.
    case entitlements(EntitlementsFacts)
    /// locked-reads: where each secret was kept, and the lock state of each locked verify launch.
    case lockedReads(LockedReadsFacts)
    /// artefact-window: the cleanup window the new build declares.
    case artefactWindow(ArtefactWindowFacts)
    /// backup-restore: which secrets travelled, and what the backup left behind.
    case restore(RestoreFacts)
    /// reinstall-self: where the reinstall falls among the cell's launches.
    case reinstallSelf(ReinstallSelfFacts)
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
    case afterRestore = "after-restore"
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
