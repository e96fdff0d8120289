import Foundation
import SimRuntime

extension Keychain {
    /// Whether an item of protection class `pdmn` (`ak`, `cku`, ...) goes with a backup to another
    /// device: every class but the `…ThisDeviceOnly` ones, whose items are wrapped by a key bound to
    /// the device and are never restored elsewhere nor synced (seed 000's table: "Included in backups:
    /// yes, except …ThisDeviceOnly classes"). A synchronizable item travels by its class too: a
    /// ThisDeviceOnly one (row 14 lets it be added) stays. Nil for a word that is no protection class.
    public static func travels(protectionClass pdmn: String) -> Bool? {
        Accessibility(rawValue: pdmn).map { !$0.isThisDeviceOnly }
    }

    /// Copies every item of this store that `keep` accepts into `destination`, all in one
    /// transaction of the destination (all or none), for a device's backup and restore. Host-side: it
    /// bypasses entitlements, lock state and the seam, as an examiner with both database files would.
    /// Every column goes (attributes, data, access control, creation and modification dates); each
    /// copy gets a new row, so a persistent reference made on the source does not name it.
    /// - Returns: how many items were copied.
    /// - Throws: either store's open error, or the SQLite error that rolled the copy back (a
    ///   primary-key collision with an item the destination already holds among them).
    @discardableResult
    public func copyItems(into destination: Keychain, where keep: (KeychainItemRecord) -> Bool) throws -> Int {
        if let openError { throw openError }
        if let openError = destination.openError { throw openError }
        guard let store, let target = destination.store else { return 0 }
        let rows: [(ItemClass, StoredRow)] = try lockedStore {
            var kept: [(ItemClass, StoredRow)] = []
            for itemClass in ItemClass.stored {
                for row in try store.select(from: itemClass, RowFilter(), limit: nil)
                where keep(record(row, itemClass: itemClass)) {
                    kept.append((itemClass, row))
                }
            }
            return kept
        }
        return try destination.lockedStore {
            try target.database.transaction(immediate: true) {
                for (itemClass, row) in rows {
                    var copy = NewRow(itemClass)
                    for (index, column) in copy.layout.columns.enumerated() {
                        if let value = row[column] { copy[index] = value }
                    }
                    _ = try target.insert(copy)
                }
                return rows.count
            }
        }
    }

    /// Deletes every item of this store that `remove` accepts, in one transaction, as iOS itself does
    /// on a device event (a passcode turned off deletes every WhenPasscodeSetThisDeviceOnly item).
    /// Host-side, as ``copyItems(into:where:)``: entitlements, lock state and the seam do not apply.
    /// - Returns: how many items were deleted.
    @discardableResult
    public func deleteItems(where remove: (KeychainItemRecord) -> Bool) throws -> Int {
        if let openError { throw openError }
        guard let store else { return 0 }
        return try lockedStore {
            try store.database.transaction(immediate: true) {
                var count = 0
                for itemClass in ItemClass.stored {
                    for row in try store.select(from: itemClass, RowFilter(), limit: nil)
                    where remove(record(row, itemClass: itemClass)) {
                        try store.delete(itemClass, rowid: row.rowid)
                        count += 1
                    }
                }
                return count
            }
        }
    }
}
