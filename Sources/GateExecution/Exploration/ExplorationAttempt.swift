import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// One explored attempt of an exploration scenario: a crash point, a pair of crash points, an
/// injected fault or a locked launch, with how it went. Names and statuses only.
struct ExplorationAttempt: Codable, Hashable, Sendable {
    enum Outcome: String, Codable, Sendable {
        /// Every invariant held.
        case ok
        /// An invariant failed: a secret lost, a written item missing, a crash, a changed store.
        case failed
        /// The attempt could not be judged (the planned crash point was not reached, a device error).
        case unknown
    }

    var id: String
    var outcome: Outcome = .ok
    /// The invariants that failed or why the attempt is unknown: `I1 authToken: in neither the keychain nor a legacy store`.
    var reasons: [String] = []
    /// Which condition each reason concerns (crash-safe unless a verify failed after recovery).
    var conditions: [GateCondition] = []
    /// The attempt whose device state this one reached (the same fingerprint): the rest of it would
    /// have been that attempt's launches again, so it was not relaunched, and its outcome is that one's.
    var coveredBy: String?
    /// The store operations around the failure: `#7 SecItemAdd genp com.example.ledger/authToken 0 (mutation 4)`.
    var log: [String] = []
    /// A failing or unknown attempt's whole timeline (``TimelineBuilder``); nil for one that is ok.
    var timeline: [String]?

    mutating func fail(_ condition: GateCondition, _ reason: String) {
        outcome = .failed
        reasons.append(reason)
        conditions.append(condition)
    }

    /// Gives each attempt covered by another (``coveredBy``) that attempt's outcome: one that reached a
    /// failed or unknown attempt's state fails or is unknown too, saying whose state it reached, under
    /// the condition the owner's first reason concerns (a recovery that read back wrong is
    /// reads-old-data's in write-failure, not crash-safe's).
    static func inheritCoverage(_ attempts: inout [ExplorationAttempt]) {
        let owners = Dictionary(attempts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for index in attempts.indices {
            guard let id = attempts[index].coveredBy, let owner = owners[id], owner.outcome != .ok else { continue }
            attempts[index].outcome = owner.outcome
            attempts[index].reasons.append(
                "the same device state as \(id), which \(owner.outcome == .failed ? "failed" : "is unknown")")
            attempts[index].conditions.append(owner.conditions.first ?? .crashSafe)
        }
    }

    /// The runner was interrupted during the attempt: whatever it saw is unknown, never failed.
    mutating func interrupted() {
        outcome = .unknown
        reasons = [CellRunner.interrupted]
        conditions = [.crashSafe]
        log = []
        timeline = nil
    }

    /// One of the attempt's launches was killed at `--timeout`: the attempt is unknown even where an
    /// invariant failed after it (the machine's load, not the app, may explain what it saw).
    mutating func timedOut(_ reason: String) {
        outcome = .unknown
        if !reasons.contains(reason) {
            reasons.append(reason)
            conditions.append(.crashSafe)
        }
    }

    mutating func unknown(_ reason: String) {
        if outcome == .ok { outcome = .unknown }
        reasons.append(reason)
        conditions.append(.crashSafe)
    }

    /// The launch's store operations as log lines (names, never values), the last `count` of them,
    /// then what a power loss took (one line).
    static func excerpt(_ record: LaunchRecord, last count: Int = 4) -> [String] {
        let calls = record.mutations.filter { $0.operation != .powerLoss }
        let lost = record.lostToPowerLoss
        let powerLoss =
            record.faultPlan.powerLoss && !lost.isEmpty
            ? ["\(record.stem) power loss took " + lost.map { "\($0.store) \($0.name ?? "")" }.joined(separator: ", ")] : []
        return calls.suffix(count).map { "\(record.stem) " + describe($0) } + powerLoss
    }

    /// One store operation: `#7 SecItemAdd genp com.example.ledger/authToken 0 (mutation 4)`, with
    /// `[injected …]` when a planned fault answered it. Names and statuses, never a value.
    static func describe(_ entry: SeamEntry) -> String {
        let names = [entry.subject.service, entry.subject.account, entry.subject.name].compactMap { $0 }.joined(separator: "/")
        // A keychain call answers an OSStatus; a preferences or file call an errno (0: done).
        let status =
            ["file", "preferences"].contains(entry.subject.store)
            ? (entry.status == 0 ? "0" : "errno \(entry.status) (\(FileFailure.posix(entry.status)))")
            : "\(SecurityStatus(entry.status))"
        var line = "#\(entry.sequence) \(entry.operation.rawValue) \(entry.subject.store) \(names) \(status)"
        if let mutation = entry.mutation { line += " (mutation \(mutation))" }
        if let injected = entry.injected { line += " [injected \(injected)]" }
        return line
    }
}
