import Foundation
import GateModel
import SimRuntime

/// upgrade: seed with the old build, upgrade in place, launch, verify every declared secret
/// (reads-old-data); then the verify once more with only the device clock moved, whose status file
/// must be the same bytes (honest-status). Runs where the path's last hop is between adjacent
/// builds; ``SkipVersionSteps`` runs the same steps where it skips one.
enum UpgradeSteps: ScenarioSteps {
    static let moments = Moment.upgraded

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        let verify = try device.launch(cell.new, .verify)
        evidence.facts = .upgrade(try verifyWithClockShifted(cell, device, after: verify))
    }

    /// The path's verify once more with only the device clock moved (by ``ClockShift/offset(caseID:)``):
    /// a status file holds nothing not derived from the inputs, so both files must be the same bytes.
    private static func verifyWithClockShifted(
        _ cell: CellRunner, _ device: ScenarioDevice, after first: LaunchRecord
    ) throws -> ClockShift {
        let seconds = ClockShift.offset(caseID: cell.caseID)
        try device.session.advanceClock(by: seconds)
        let second = try device.launch(cell.new, .verify)
        return ClockShift(seconds: seconds, stems: [first.stem, second.stem])
    }
}

/// The clock-shifted verify of an upgrade scenario: the same verify launched again with only the
/// device clock moved, by an offset derived from the case id (so a replay shifts it the same way).
/// A status file holds nothing that is not derived from the inputs, so honest-status requires the
/// two files to be the same bytes.
struct ClockShift: Sendable, Equatable {
    /// How far the clock moved, in seconds.
    var seconds: Double
    /// The two verify launches' stems (`03-v2-verify`, `04-v2-verify`).
    var stems: [String]

    /// Between 1 and 400 days, and some seconds besides, from the case id alone.
    static func offset(caseID: String) -> Double {
        var generator = SplitMix64(seed: Array(caseID.utf8).reduce(0xC10C_5EED) { ($0 &* 31) &+ UInt64($1) })
        return Double(86_400 + generator.next() % (399 * 86_400))
    }
}

extension CellEvidence {
    /// The upgrade's clock-shifted verify (upgrade and skip-version cells).
    var clockShift: ClockShift? {
        if case .upgrade(let shift) = facts { shift } else { nil }
    }
}

/// skip-version: the upgrade's steps on a path whose last hop skips at least one release (v1 to v3).
enum SkipVersionSteps: ScenarioSteps {
    static let moments = UpgradeSteps.moments

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try UpgradeSteps.run(cell, on: device, &evidence)
    }
}
