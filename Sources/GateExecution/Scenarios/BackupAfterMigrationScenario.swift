import Foundation
import GateModel
import SimDevice
import SimRuntime

/// backup-after-migration: the user updates, opens the new release once, then moves to a new phone.
/// The old build seeds (a route's hops run too), the new build is installed in place and launched
/// (its migration runs), then the device is backed up as an encrypted iOS backup takes it
/// (``DeviceSession/backup(to:)``), restored onto a fresh device, and the new build, installed there,
/// is launched and verified (survives-restore). What travelled is read on the restored device, where
/// the new build reaches it, before the new build runs there; a secret the old build kept in a
/// ThisDeviceOnly keychain item that travels now started to travel with the migration (a session
/// cloned onto another phone), which survives-restore fails too.
enum BackupAfterMigrationSteps: ScenarioSteps {
    static let moments: Set<Moment> = [.afterSeed, .afterRestore, .afterFirstLaunch]

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let old = cell.old else { return }
        try cell.seed(device, &evidence, hops: false)
        // Where the old build kept each secret: its device-bound ones must stay so.
        let seededKeychain = try device.keychainItems()
        var deviceBound: [String: String] = [:]
        for label in evidence.seeded {
            guard let store = cell.declarations.old.secret(label)?.store,
                let place = try SecretPlace.find(store, on: device.device, app: old, keychain: seededKeychain),
                case .keychain(let accessible, _) = place.protection, SecretProtection.thisDeviceOnly(accessible)
            else { continue }
            deviceBound[label] = place.description
        }
        try cell.hop(device)
        try device.install(cell.new)
        try device.launch(cell.new, .launch)
        let restored = try ScenarioDevice(
            restoring: device, devices: cell.devices, name: "\(cell.unit.pathID)-\(cell.unit.scenario)-restored")
        defer {
            device.adoptLaunches(of: restored)
            restored.finish(keepSnapshotFor: nil)
        }
        let items = try restored.keychainItems()
        let travelled = cell.declarations.locator.locate(on: restored.session, app: cell.new, keychain: items)
            .filter { !$0.value.isEmpty }.map(\.key).sorted()
        evidence.snapshots[.afterRestore] = try restored.snapshot(cell.new, keychain: items)
        let manifest = restored.restored
        var facts = RestoreFacts(
            travelled: travelled, keychainItems: manifest?.keychainItems ?? 0,
            keychainItemsLeftBehind: manifest?.keychainItemsLeftBehind ?? 0, leftOut: manifest?.leftOut.count ?? 0,
            newIdentity: restored.device.udid != device.device.udid)
        facts.startedToTravel = travelled.compactMap { label in deviceBound[label].map { (label, $0) } }
            .sorted { $0.0 < $1.0 }.map { RestoreFacts.StartedToTravel(label: $0.0, oldPlace: $0.1) }
        evidence.facts = .restore(facts)
        try restored.install(cell.new)
        try restored.launch(cell.new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try restored.snapshot(cell.new)
        try restored.launch(cell.new, .verify)
    }
}
