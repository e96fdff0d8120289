import Foundation
import GateModel
import SimRuntime

/// os-update: the upgrade on the oldest iOS the new build supports (its build.json's
/// `minimumOSVersion`, else ``RuntimeVersion/oldestSupportedDefault``): seed with the old build, upgrade
/// in place, the new build's first launch; then the device's iOS is updated to the cell's runtime
/// (a user who updates the app first and the OS later: the device restarts, and the user unlocks it)
/// and a verify launch reads every declared secret. Judged by reads-old-data and stays-signed-in. A
/// migration that runs, or stores, differently on an older iOS (an API it gates on the version,
/// marking the migration done where it did nothing) passes the upgrade on the cell's runtime and
/// fails here. Where the new build's oldest iOS is not older than the cell's, the device starts on
/// the cell's runtime and the update changes nothing.
enum OSUpdateSteps: ScenarioSteps {
    static let moments = Moment.upgraded

    static func startRuntime(_ cell: CellRunner) -> RuntimeVersion? {
        let oldest = cell.new.manifest.minimumRuntime ?? .oldestSupportedDefault
        return min(oldest, cell.runtime)
    }

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.session.updateOS(to: cell.runtime)
        try device.session.unlock()
        try device.launch(cell.new, .verify)
    }
}
