import Foundation
import GateModel
import SimDevice
import SimRuntime

/// honest-status at two clocks: a cell whose scenario asks for it (``ScenarioSteps/twinsLaunches``)
/// runs its steps a second time on a device of its own whose clock starts later, by
/// ``offset(caseID:)``, than the cell's fixed ``ScenarioDevice/epoch``: the same installs, seed,
/// upgrade and launches, every date moved by the same amount. A status file holds nothing not
/// derived from the inputs, so each launch's file must be the same bytes at both clocks: a seed,
/// plain or verify launch that writes the time (a migration date, an expiry, a "checked at")
/// into its status file fails.
///
/// The whole sequence moves, not one launch: an app that acts on the time between two of its
/// own dates (a 30-day window after its migration) acts the same at both clocks, so only time that
/// reaches a status file tells. The second run's status files and logs go to the cell's
/// `clock-shifted/` folder under the same stems; nothing else of the cell sees them (its
/// snapshots and other conditions are the first run's).
enum ClockTwin {
    /// Between 1 and 400 days, and some seconds besides, from the case id alone (so a replay moves
    /// it the same way).
    static func offset(caseID: String) -> Double {
        var generator = SplitMix64(seed: Array(caseID.utf8).reduce(0xC10C_5EED) { ($0 &* 31) &+ UInt64($1) })
        return Double(86_400 + generator.next() % (399 * 86_400))
    }

    /// Runs `cell`'s scenario again on a device whose clock starts `offset(caseID:)` later, and
    /// pairs its launches with `launches` (the first run's) by stem.
    /// - Throws: a device error of the second run (honest-status is then UNKNOWN).
    static func run(_ cell: CellRunner, pairedWith launches: [LaunchRecord]) throws -> [ClockTwinPair] {
        let seconds = offset(caseID: cell.caseID)
        let device = try ScenarioDevice(
            devices: cell.devices, name: "\(cell.unit.pathID)-\(cell.unit.scenario)-clock-shifted", runtime: cell.runtime,
            cellFolder: cell.cellFolder + "/" + ArtifactLayout.clockShiftedFolder, declarations: cell.declarations,
            timeout: cell.timeout, clock: ScenarioDevice.epoch.addingTimeInterval(seconds), launchCount: cell.launchCount)
        defer { device.finish(keepSnapshotFor: nil) }
        var evidence = CellEvidence(unit: cell.unit, runtime: cell.runtime, caseID: cell.caseID)
        evidence.declarations = cell.declarations
        try cell.unit.scenario.steps.run(cell, on: device, &evidence)
        let shifted = Dictionary(device.launches.map { ($0.stem, $0) }, uniquingKeysWith: { first, _ in first })
        return launches.map { launch in
            let twin = shifted[launch.stem]
            return ClockTwinPair(
                stem: launch.stem, seconds: seconds, statusBytes: twin?.statusBytes, ran: twin != nil,
                exitedCleanly: twin?.exitedCleanly ?? false, timedOut: twin?.timedOut ?? false,
                termination: twin.map { "\($0.termination)" } ?? "did not run")
        }
    }
}

/// One launch and the same launch at the second clock: names and outcomes only.
struct ClockTwinPair: Sendable {
    /// The launch's stem (`03-v2-verify`); the second run's files carry the same one.
    var stem: String
    /// How much later the second run's clock is, in seconds.
    var seconds: Double
    /// The second run's status file, whether that launch ran at all (a run that took another
    /// course has other stems), and whether it exited cleanly.
    var statusBytes: Data?
    var ran: Bool
    var exitedCleanly: Bool
    /// Whether the runner killed it at `--timeout` (the comparison is then UNKNOWN).
    var timedOut: Bool
    var termination: String
}
