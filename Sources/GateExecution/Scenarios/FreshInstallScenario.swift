import Foundation
import GateModel

/// fresh-install: the new build alone on an empty device, launched twice; the second launch
/// changes nothing (idempotent) and nothing secret is left in the artifacts. Only on a fresh
/// install (`none-to-X`), never on an upgrade path (``GatePlan/applies(_:to:lastHopAdjacent:)``).
enum FreshInstallSteps: ScenarioSteps {
    static let moments: Set<Moment> = [.afterFirstLaunch, .afterSecondLaunch]
    static let idempotenceMoments: [Moment] = [.afterFirstLaunch, .afterSecondLaunch]
    static let twinsLaunches = true

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try device.install(cell.new)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try device.snapshot(cell.new)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterSecondLaunch] = try device.snapshot(cell.new)
    }
}
