import Foundation
import GateModel

/// isolation: another team's items on the device stay untouched through the seed, the upgrade, a
/// verify, the test's cleanup, the app's next launch and the final re-read (where the case's
/// secrets read as missing).
enum IsolationSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread).union([.neighbourBefore, .neighbourAfter])

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.addNeighbourItems(device)
        evidence.snapshots[.neighbourBefore] = try device.snapshot(cell.old ?? cell.new)
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .verify)
        try device.launch(cell.new, .cleanup)
        // The app's own launch after the test's cleanup (it may write its markers again), then
        // the final re-read: the case's secrets read as missing, the neighbour's items untouched.
        try device.launch(cell.new, .launch)
        try cell.finalReread(device, &evidence)
        evidence.snapshots[.neighbourAfter] = try device.snapshot(cell.new)
    }
}
