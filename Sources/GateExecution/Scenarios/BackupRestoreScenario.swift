import Foundation
import GateModel
import SimDevice
import SimRuntime

/// backup-restore: the user moves to a new phone. The old build seeds (a route's hops run too), the
/// device is backed up as an encrypted iOS backup takes an app's data to another device
/// (``DeviceSession/backup(to:)``: ThisDeviceOnly keychain items, Library/Caches, tmp and files
/// excluded from backup stay behind), the backup is restored onto a fresh device with its own
/// identity, and the new build, installed there as the App Store would, is launched and verified
/// (survives-restore). What travelled is read on the restored device before the new build runs.
enum BackupRestoreSteps: ScenarioSteps {
    static let moments: Set<Moment> = [.afterSeed, .afterRestore, .afterFirstLaunch]

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let old = cell.old else { return }
        try cell.seed(device, &evidence)
        // What the old build kept that travelled: its secrets' places on the new device, by the old build's reach.
        try restoreAndVerify(cell, from: device, reach: cell.previous ?? old, &evidence)
    }

    /// The move to a new phone that backup-restore and backup-after-migration share: `device`'s
    /// backup restored onto a fresh device with its own identity; the case's secrets found there
    /// where `app` reaches, before the new build runs (the `afterRestore` snapshot and
    /// ``RestoreFacts``, which `adjust` may add to); then the new build installed there as the App
    /// Store would, launched and verified.
    static func restoreAndVerify(
        _ cell: CellRunner, from device: ScenarioDevice, reach app: Build, _ evidence: inout CellEvidence,
        adjust: (inout RestoreFacts) -> Void = { _ in }
    ) throws {
        let restored = try ScenarioDevice(
            restoring: device, devices: cell.devices, name: "\(cell.unit.pathID)-\(cell.unit.scenario)-restored")
        // The restored phone ends with the cell's device: kept beside it (--keep-failed), or deleted.
        device.accompany(restored, role: "restored")
        defer { device.adoptLaunches(of: restored) }
        let items = try restored.keychainItems()
        let travelled = cell.declarations.locator.locate(on: restored.session, app: app, keychain: items)
        evidence.snapshots[.afterRestore] = try restored.snapshot(app, keychain: items)
        let manifest = restored.restored
        var facts = RestoreFacts(
            travelled: travelled.filter { !$0.value.isEmpty }.map(\.key).sorted(),
            keychainItems: manifest?.keychainItems ?? 0, keychainItemsLeftBehind: manifest?.keychainItemsLeftBehind ?? 0,
            leftOut: manifest?.leftOut.count ?? 0,
            newIdentity: restored.device.udid != device.device.udid)
        adjust(&facts)
        evidence.facts = .restore(facts)
        try restored.install(cell.new)
        device.checkpoint(restored)
        try restored.launch(cell.new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try restored.snapshot(cell.new)
        try restored.launch(cell.new, .verify)
    }
}

/// What backup-restore's steps record: which seeded secrets travelled (their bytes were on the
/// restored device, where the old build reaches, before the new build ran), and what the backup
/// left behind (counts only).
struct RestoreFacts: Sendable {
    /// The labels of the case's secrets found on the restored device, sorted.
    var travelled: [String]
    var keychainItems: Int
    /// Keychain items of ThisDeviceOnly classes, which no backup takes to another device.
    var keychainItemsLeftBehind: Int
    /// Files and folders left out (caches, tmp, excluded from backup).
    var leftOut: Int
    /// Whether the restored device has its own identity (UDID), as a new phone does.
    var newIdentity: Bool
    /// backup-after-migration: the secrets the old build kept in a ThisDeviceOnly keychain item that
    /// travelled in the backup taken after the new build's first launch (empty in backup-restore).
    var startedToTravel: [StartedToTravel] = []

    struct StartedToTravel: Sendable {
        var label: String
        /// Where the old build kept it: `keychain genp svc/account (cku)`.
        var oldPlace: String
    }
}

extension CellEvidence {
    /// backup-restore's facts, or nil in another scenario's cell.
    var restore: RestoreFacts? {
        if case .restore(let facts) = facts { facts } else { nil }
    }
}
