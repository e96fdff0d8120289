import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// Writes a ``Timeline`` from what a cell or an attempt recorded: its launches in order, each with
/// its numbered store operations, and the checkpoints where the runner read where the declared
/// secrets were.
///
/// Where each secret was after an operation is known at a checkpoint (after a crash, after the
/// recovery, at the end, after a verify launch), and, for the first launch of the new build in a
/// crash-points cell, after every mutation up to the crash: the attempt that crashed right after
/// mutation j read the device there (``placesAfterMutation``). Operations after an injected fault
/// are not annotated (the launch went another way from there than in those attempts).
struct TimelineBuilder {
    /// The declared secrets, in the order a line lists them.
    let labels: [String]
    /// Where each secret was right after mutation j of the new build's first launch, when an
    /// attempt that crashed there read it (crash-points only).
    var placesAfterMutation: [Int: [String: SecretLocator.Place]] = [:]
    /// The stem of the launch ``placesAfterMutation`` describes (the attempt's first launch).
    var annotatedLaunch: String?

    private(set) var lines: [String] = []
    private var written: Set<Int> = []

    init(labels: [String]) { self.labels = labels }

    /// `authToken: keychain, refreshToken: nowhere`.
    func places(_ places: [String: SecretLocator.Place]) -> String {
        labels.map { label in
            let place = places[label] ?? []
            let word =
                place.contains(.keychain) && place.contains(.legacy)
                ? "keychain and legacy store"
                : place.contains(.keychain) ? "keychain" : place.contains(.legacy) ? "legacy store" : "nowhere"
            return "\(label): \(word)"
        }.joined(separator: ", ")
    }

    /// One launch: its header, its operations (with where the secrets were after each when known),
    /// the crash point it ended at, and what its status file reported for each secret.
    mutating func launch(_ record: LaunchRecord) {
        guard written.insert(record.index).inserted else { return }
        var header = "\(record.stem)"
        var plan: [String] = []
        if let k = record.faultPlan.crashAfterMutation {
            plan.append(record.faultPlan.powerLoss ? "power loss after mutation \(k)" : "crash after mutation \(k)")
        }
        if !record.faultPlan.faults.isEmpty { plan.append("\(record.faultPlan.faults.count) planned fault(s)") }
        if !plan.isEmpty { header += " (" + plan.joined(separator: "; ") + ")" }
        header += record.endedAtCrashPoint ? ": ended at the planned point" : ": \(record.termination)"
        lines.append(header)
        var faulted = false
        for entry in record.mutations where entry.operation != .powerLoss {
            var line = "  " + ExplorationAttempt.describe(entry)
            if entry.injected != nil { faulted = true }
            if !faulted, record.stem == annotatedLaunch, let mutation = entry.mutation,
                let after = placesAfterMutation[mutation]
            {
                line += " → " + places(after)
            }
            lines.append(line)
        }
        if record.endedAtCrashPoint, let k = record.faultPlan.crashAfterMutation {
            lines.append("  ✂ \(record.faultPlan.powerLoss ? "power loss" : "killed") right after mutation \(k)")
            let lost = record.lostToPowerLoss
            if !lost.isEmpty {
                lines.append("  power loss took " + lost.map { "\($0.store) \($0.name ?? "")" }.joined(separator: ", "))
            }
        }
        if let status = record.status {
            let reported = status.items.filter { labels.contains($0.name) }.map { "\($0.name) \($0.result.rawValue)" }
            if !reported.isEmpty { lines.append("  reported: " + reported.joined(separator: ", ")) }
        } else if let problem = record.statusProblem {
            lines.append("  " + problem)
        } else {
            lines.append("  no status file")
        }
        if let where_ = record.secretPlaces { lines.append("  on the device after it: " + places(where_)) }
    }

    /// Every launch of `launches` up to and including the one numbered `index`, not yet written.
    mutating func launches(_ launches: [LaunchRecord], through index: Int) {
        for record in launches where record.index <= index { launch(record) }
    }

    /// The timeline of an exploration attempt: its launches in order, with the checkpoints its
    /// steps recorded between them.
    static func attempt(
        _ record: AttemptRecord, launches: [LaunchRecord], labels: [String],
        placesAfterMutation: [Int: [String: SecretLocator.Place]]
    ) -> [String] {
        var builder = TimelineBuilder(labels: labels)
        builder.placesAfterMutation = placesAfterMutation
        builder.annotatedLaunch = launches.first?.stem
        for step in record.steps {
            switch step {
            case .launch(let launch, _), .planned(let launch), .verified(let launch):
                builder.launches(launches, through: launch.index)
                builder.launch(launch)
            case .located(let places, let when, let crashed):
                if let crashed {
                    builder.launches(launches, through: crashed.index)
                    builder.launch(crashed)
                } else {
                    // A checkpoint right after a crash that is not named here (a pair's second crash).
                    for launch in launches where launch.endedAtCrashPoint { builder.launches(launches, through: launch.index) }
                }
                builder.lines.append("where \(when): " + builder.places(places))
            case .settled(let places, _):
                builder.lines.append("at the end: " + builder.places(places))
            case .unjudgeable(let reason):
                builder.lines.append("could not be judged: \(reason)")
            case .holders(let holders, _):
                let named = holders.sorted { $0.key < $1.key }.map {
                    "\($0.key) in \($0.value.isEmpty ? "no keychain item" : $0.value.joined(separator: ", "))"
                }
                builder.lines.append("keychain items at the end: " + named.joined(separator: "; "))
            case .itemsAfterRecovery, .relaunched, .signedIn:
                continue
            }
        }
        builder.launches(launches, through: .max)
        if let owner = record.coveredBy {
            builder.lines.append("the device was then as after attempt \(owner)'s crash: not relaunched, judged as that attempt")
        }
        if let stopped = record.stopped { builder.lines.append("stopped: \(stopped)") }
        return builder.lines
    }

    /// The timeline of a cell that is no exploration: each of its launches in order.
    static func cell(_ launches: [LaunchRecord], labels: [String]) -> [String] {
        var builder = TimelineBuilder(labels: labels)
        builder.launches(launches, through: .max)
        return builder.lines
    }
}
