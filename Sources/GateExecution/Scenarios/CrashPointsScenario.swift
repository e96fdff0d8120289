import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// crash-points: the new build's first launch killed right after each store mutation it commits,
/// then recovered; and pairs, a second crash inside the recovery launch (crash-safe).
enum CrashPointsSteps: ScenarioSteps {
    static let moments: Set<Moment> = []

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.explore(&evidence) { $0.crashPoints(.crash) }
    }
}

/// How a crash point ends the launch: the process killed (crash-points), or the device losing
/// power, which also takes what iOS can lose then (power-loss: ``FaultPlan/powerLoss``).
enum CrashKind {
    case crash
    case powerLoss

    /// The launch's plan: this kind of end right after the k-th mutation.
    func plan(after k: Int) -> FaultPlan { self == .powerLoss ? .powerLoss(afterMutation: k) : FaultPlan(crashAfterMutation: k) }

    /// `crash`, `power loss`: attempt ids (`power loss 3 then 2`) and reasons.
    var word: String { self == .powerLoss ? "power loss" : "crash" }
    /// `crash point`, `power-loss point`.
    var point: String { self == .powerLoss ? "power-loss point" : "crash point" }
}

extension Explorer {
    /// Pairs are explored exhaustively while the recovery launch has at most this many mutations;
    /// beyond, an evenly spaced deterministic sample of this size.
    static let pairLimit = 20
    /// Counts the mutations of the new build's first launch, then for each k ends it right after
    /// the k-th commits (`kind`: killed, or the device losing power), recovers and checks; then
    /// pairs: a second end of the same kind inside the recovery launch.
    ///
    /// No device state is explored twice: each state right after a crash is fingerprinted
    /// (``ScenarioDevice/stateFingerprint()``), and an attempt that reaches a state an earlier attempt
    /// started its recovery from is recorded as covered by that attempt (its outcome) and not
    /// relaunched. A crash point's pairs start from a copy of the device kept right after its first
    /// crash, so the first crash is not run again for each of them.
    func crashPoints(_ kind: CrashKind) -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        var recoveryMutations: [Int: Int] = [:]
        var firstLaunchMutations = 0
        // Fingerprint of a state after a crash -> the attempt that recovered from it.
        var explored: [String: String] = [:]
        var attempts = [
            attempt("baseline", template) { device, record in
                let first = try device.launch(new, .launch)
                firstLaunchMutations = first.mutations.compactMap(\.mutation).max() ?? 0
                guard record.needs(first), record.plans(first) else { return }
                try recovered(device, recovery: first, &record)
            }
        ]
        for k in stride(from: 1, through: firstLaunchMutations, by: 1) {
            attempts.append(
                attempt("\(kind.word) \(k)", template) { device, record in
                    let crashed = try device.launch(new, .launch, faultPlan: kind.plan(after: k))
                    guard crashed.endedAtCrashPoint else {
                        record.record(.unjudgeable("\(kind.point) \(k) was not reached (\(crashed.termination))"))
                        return
                    }
                    record.log = ExplorationAttempt.excerpt(crashed)
                    // One read of the keychain serves the fingerprint and I1.
                    let keychain = try device.keychainItems()
                    guard try claim(device, keychain: keychain, explored: &explored, &record) else {
                        if kind == .crash, let owner = record.coveredBy {
                            template.placesAfterMutation[k] = template.placesAfterCrash[owner]
                        }
                        return
                    }
                    let folder = "\(kind.word)-\(k)".replacingOccurrences(of: " ", with: "-")
                    template.afterCrash[k] = try ScenarioDevice(
                        cloning: device, devices: cell.devices, name: "\(cell.unit.pathID)-after-\(folder)",
                        cellFolder: cell.cellFolder + "/attempts/" + folder, continuingNumbering: true)
                    try locate(device, when: "after the \(kind.word)", &record, crashed: crashed, keychain: keychain)
                    if kind == .crash, case .located(let places, _, _)? = record.steps.last {
                        template.placesAfterMutation[k] = places
                        template.placesAfterCrash[record.id] = places
                    }
                    let recovery = try device.launch(new, .launch)
                    recoveryMutations[k] = recovery.mutations.compactMap(\.mutation).max() ?? 0
                    guard record.needs(recovery) else { return }
                    try recovered(device, recovery: recovery, &record)
                })
        }
        var sampled: [Int] = []
        for k in stride(from: 1, through: firstLaunchMutations, by: 1) {
            let count = recoveryMutations[k] ?? 0
            let seconds = Self.sample(count, limit: Self.pairLimit)
            if seconds.count < count { sampled.append(k) }
            guard let afterCrash = template.afterCrash[k] else { continue }
            for j in seconds {
                attempts.append(
                    attempt("\(kind.word) \(k) then \(j)", template, from: afterCrash) { device, record in
                        let second = try device.launch(new, .launch, faultPlan: kind.plan(after: j))
                        guard second.endedAtCrashPoint else {
                            return record.record(
                                .unjudgeable("\(kind.point) \(j) of the recovery launch was not reached (\(second.termination))"))
                        }
                        record.log = ExplorationAttempt.excerpt(second, last: 2)
                        // One read of the keychain serves the fingerprint and I6.
                        let keychain = try device.keychainItems()
                        guard try claim(device, keychain: keychain, explored: &explored, &record) else { return }
                        try locate(
                            device, when: "after a \(kind.word) during recovery (I6)", &record,
                            crashed: kind == .powerLoss ? second : nil, keychain: keychain)
                        let recovery = try device.launch(new, .launch)
                        guard record.needs(recovery) else { return }
                        try recovered(device, recovery: recovery, &record)
                    })
            }
        }
        ExplorationAttempt.inheritCoverage(&attempts)
        let pairs = attempts.count - 1 - firstLaunchMutations
        var note =
            "first launch of \(new.manifest.id): \(firstLaunchMutations) mutations; \(firstLaunchMutations) \(kind.point)s and \(pairs) pairs explored"
        if !sampled.isEmpty {
            note +=
                "; pairs sampled (\(Self.pairLimit) of each) after \(kind.point)s \(sampled.map(String.init).joined(separator: ", "))"
        }
        let covered = attempts.filter { $0.coveredBy != nil }.count
        note +=
            "; \(explored.count) distinct states after a \(kind.word), \(covered) attempts covered by an equal state; \(template.launches) launches"
        return (attempts, note)
    }

    /// 1...count, or an evenly spaced sample of `limit` of them.
    static func sample(_ count: Int, limit: Int) -> [Int] {
        guard count > limit else { return Array(stride(from: 1, through: count, by: 1)) }
        return (0..<limit).map { 1 + $0 * (count - 1) / (limit - 1) }
    }
}
