import Foundation
import GateModel

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
        evidence.clockShift = try verifyWithClockShifted(cell, device, after: verify)
    }

    /// The path's verify once more with only the device clock moved (by ``ClockShift/offset(caseID:)``):
    /// a status file holds nothing not derived from the inputs, so both files must be the same bytes.
    private static func verifyWithClockShifted(
        _ cell: CellRunner, _ device: ScenarioDevice, after first: LaunchRecord
    ) throws -> ClockShift {
        let seconds = ClockShift.offset(caseID: cell.caseID)
        try device.session.advanceClock(by: seconds)
        let second = try device.launch(cell.new, .verify)
        return ClockShift(
            seconds: seconds, stems: [first.stem, second.stem],
            identical: first.statusBytes != nil && first.statusBytes == second.statusBytes)
    }
}

/// skip-version: the upgrade's steps on a path whose last hop skips at least one release (v1 to v3).
enum SkipVersionSteps: ScenarioSteps {
    static let moments = UpgradeSteps.moments

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try UpgradeSteps.run(cell, on: device, &evidence)
    }
}
