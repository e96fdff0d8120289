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
        try BackupRestoreSteps.restoreAndVerify(cell, from: device, reach: cell.new, &evidence) { facts in
            facts.startedToTravel = facts.travelled.compactMap { label in deviceBound[label].map { (label, $0) } }
                .sorted { $0.0 < $1.0 }.map { RestoreFacts.StartedToTravel(label: $0.0, oldPlace: $0.1) }
        }
    }
}
