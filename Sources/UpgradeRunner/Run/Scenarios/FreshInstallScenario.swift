import Foundation

/// fresh-install: the new build alone on an empty device, launched twice; the second launch
/// changes nothing (idempotent) and nothing secret is left in the artifacts.
enum FreshInstallSteps: ScenarioSteps {
    static let moments: Set<Moment> = [.afterFirstLaunch, .afterSecondLaunch]
    static let idempotenceMoments: [Moment] = [.afterFirstLaunch, .afterSecondLaunch]

    /// Only on a fresh install (`none-to-X`), never on an upgrade path.
    static func applies(to path: BuildPair, lastHopAdjacent: Bool) -> Bool { false }

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try device.install(cell.new)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try device.snapshot(cell.new)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterSecondLaunch] = try device.snapshot(cell.new)
    }
}
