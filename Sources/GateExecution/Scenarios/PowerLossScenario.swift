import Foundation
import GateModel

/// power-loss (opt-in, ``Scenario/isOptIn``): the new build's first launch loses power right after
/// each store mutation it commits, which ends it as a crash does and also takes what iOS can lose
/// then: every preference set of the launch, and each file's data written since its last fsync
/// (docs/file-supervision.md, "Power loss"); keychain commits stay. Then recovered and verified as
/// crash-points does, with its points, its pairs (a second power loss inside the recovery launch)
/// and its state dedupe (crash-safe).
enum PowerLossSteps: ScenarioSteps {
    static let moments: Set<Moment> = []

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.explore(&evidence) { $0.crashPoints(.powerLoss) }
    }
}
