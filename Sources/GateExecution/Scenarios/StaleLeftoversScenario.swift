import Foundation
import GateModel

/// stale-leftovers: an earlier case, interrupted after seeding, left its data; this case seeds
/// nothing, so a verify that reports this case's secrets found is a false pass (no-false-pass).
enum StaleLeftoversSteps: ScenarioSteps {
    static let moments = Moment.upgraded

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence, caseID: ExtraCase.interrupted.id(of: cell.caseID))
        evidence.seeded = []
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .verify)
    }
}
