import Foundation
import GateModel

/// storage-pressure: iOS runs low on storage after the migration. Seed, upgrade (the new build's
/// first launch migrates), then, while no app runs, the device purges every app's `Library/Caches`
/// and `tmp` and every app group container's `Library/Caches` (``ScenarioDevice/purgeCaches()``,
/// `device purge-caches`); the user opens the app again (a plain launch, which may rebuild its
/// caches), and the final re-read follows: its relaunch must change nothing and its verify must read
/// every seeded secret `found` (reads-old-data; stays-signed-in on each launch after the purge).
/// A secret the new build keeps only in a cache or temporary file is gone, as on iOS.
enum StoragePressureSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread)

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.purgeCaches()
        // The user opens the app after the purge; what it rebuilds then is its own (idempotent
        // compares the final relaunch with this launch's result).
        try device.launch(cell.new, .launch)
        try cell.finalReread(device, &evidence)
    }
}
