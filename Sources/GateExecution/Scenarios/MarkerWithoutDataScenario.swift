import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// marker-without-data: after the upgrade, every item of the app goes but its bookkeeping (what the
/// builds declare as `bookkeeping`: the schema version, the migration date), as when a user's
/// keychain was restored without them; the app must not report the secrets it keeps in the keychain
/// found (reads-old-data expects them missing; one the new build keeps in a file or a preference is
/// untouched and must read back), then the final re-read.
enum MarkerWithoutDataSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread).union([.afterDataRemoved])
    static let removal: (wanted: ItemResult, when: String)? = (.missing, "after its keychain data was removed")

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try removeDataKeepingMarkers(cell, device)
        evidence.snapshots[.afterDataRemoved] = try device.snapshot(cell.new)
        try device.launch(cell.new, .launch)
        try device.launch(cell.new, .verify)
        try cell.finalReread(device, &evidence)
    }

    /// Removes every item of the new build's groups that the builds do not declare as bookkeeping.
    private static func removeDataKeepingMarkers(_ cell: CellRunner, _ device: ScenarioDevice) throws {
        let keychain = cell.adminKeychain(device, identity: cell.new.identity)
        for item in try keychain.dump() where cell.new.identity.accessGroups.contains(item.accessGroup) {
            guard !cell.declarations.isBookkeeping(item) else { continue }
            // By its persistent reference: exactly this item, whatever its class's primary key.
            let query: [CFString: Any] = [
                kSecClass: item.itemClass as CFString, kSecValuePersistentRef: item.persistentReference,
                kSecAttrSynchronizable: kSecAttrSynchronizableAny,
            ]
            let status = keychain.delete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw DeviceError.fileSystem(
                    device.session.layout.keychainPath, reason: "cannot remove an item: \(SecurityStatus(status))")
            }
        }
    }
}
