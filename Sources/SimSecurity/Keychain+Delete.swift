import Foundation
import SimRuntime

// SecItemDelete.
extension Keychain {
    func deleteItems(_ queryDictionary: QueryEntries, _ store: KeychainStore) throws {
        let query = try QueryParser.parse(queryDictionary)
        guard query.limit == nil, !query.otherMatchKeys else { throw SecStatusFailure(errSecParam) }  // row 27
        try checkEntitlement(query, isRead: false)
        guard query.itemClass != .identity else { throw SecStatusFailure(errSecItemNotFound) }
        try store.database.transaction(immediate: true) {
            let rows = try store.select(from: query.itemClass, filter(for: query), limit: nil)  // row 31
            guard !rows.isEmpty else { throw SecStatusFailure(errSecItemNotFound) }
            let view = lockView
            // Deleting needs no class key for local items (row 39); a synchronizable item's
            // tombstone does, so those answer the lock error.
            for row in rows where row.isSynchronizable && !(row.accessibility?.isAvailable(in: view) ?? false) {
                throw SecStatusFailure(errSecInteractionNotAllowed)
            }
            for row in rows {
                try store.delete(query.itemClass, rowid: row.rowid)
            }
        }
    }
}
