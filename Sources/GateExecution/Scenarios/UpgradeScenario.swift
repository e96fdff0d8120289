import Foundation
import GateModel
import SimRuntime

/// upgrade: seed with the old build, upgrade in place, launch, verify every declared secret
/// (reads-old-data). The steps run again with every date moved (``ClockTwin``), and each launch's
/// status file must be the same bytes at both clocks (honest-status). Runs where the
/// path's last hop is between adjacent builds; ``SkipVersionSteps`` runs the same steps where it
/// skips one.
enum UpgradeSteps: ScenarioSteps {
    static let moments = Moment.upgraded
    static let twinsLaunches = true

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .verify)
    }
}

/// skip-version: the upgrade's steps on a path whose last hop skips at least one release (v1 to v3).
enum SkipVersionSteps: ScenarioSteps {
    static let moments = UpgradeSteps.moments
    static let twinsLaunches = true

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try UpgradeSteps.run(cell, on: device, &evidence)
    }
}

/// late-upgrade: the upgrade's steps with the device clock moved a year or more between the seed and
/// the new build's install (``LateUpgradeSteps/offset(caseID:)``), as for a user who updates a
/// year after they last opened the app. Judged in full, like the upgrade at the seed's date:
/// reads-old-data, stays-signed-in, and honest-status at two clocks. A migration that runs only
/// before a "sunset" date, or that treats a year-old session as expired and drops it, fails here
/// and passes the upgrade. On every upgrade path (adjacent or skipping).
enum LateUpgradeSteps: ScenarioSteps {
    static let moments = UpgradeSteps.moments
    static let twinsLaunches = true

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try device.session.advanceClock(by: offset(caseID: cell.caseID))
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .verify)
    }

    /// Between 365 and 730 days, and some seconds besides, from the case id alone (so a replay
    /// moves it the same way, and each case meets another date).
    static func offset(caseID: String) -> Double {
        var generator = SplitMix64(seed: Array(caseID.utf8).reduce(0x1A7E_0FF5) { ($0 &* 31) &+ UInt64($1) })
        return Double(365 * 86_400 + generator.next() % (365 * 86_400))
    }
}
