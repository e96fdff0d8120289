import Foundation
import GateModel

/// cleanup: the test's cleanup launch removes exactly this case's data: another case's data seeded
/// before it by the first build, and another team's items, stay (cleanup-exact).
enum CleanupSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread).union([.beforeCase, .beforeCleanup, .afterCleanup])

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.addNeighbourItems(device)
        // Another case's data, seeded by the first build; the route's hops come after this case's seed.
        try cell.seed(device, &evidence, caseID: ExtraCase.other.id(of: cell.caseID), hops: false)
        evidence.snapshots[.beforeCase] = try device.snapshot(cell.old ?? cell.new)
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .verify)
        evidence.snapshots[.beforeCleanup] = try device.snapshot(cell.new)
        try device.launch(cell.new, .cleanup)
        evidence.snapshots[.afterCleanup] = try device.snapshot(cell.new)
        try device.launch(cell.new, .launch)
        try cell.finalReread(device, &evidence)
    }
}
