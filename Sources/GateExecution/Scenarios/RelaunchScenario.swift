import Foundation
import GateModel

/// relaunch: after the upgrade, two more plain launches that must change nothing (idempotent),
/// then a verify launch of every declared secret (the final re-read).
enum RelaunchSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union([.afterRelaunch1, .afterRelaunch2])
    static let idempotenceMoments: [Moment] = [.afterFirstLaunch, .afterRelaunch1, .afterRelaunch2]

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterRelaunch1] = try device.snapshot(cell.new)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterRelaunch2] = try device.snapshot(cell.new)
        // Its relaunches are the idempotent check; the final re-read follows them.
        try device.launch(cell.new, .verify)
    }
}
