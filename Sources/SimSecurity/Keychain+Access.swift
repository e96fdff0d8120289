import Foundation
import SimRuntime

// Which items a call may see: the entitlement checks and the row filter of access groups and lock state.
extension Keychain {
    /// Checks the entitlements a call needs (rows 9 and 11).
    func checkEntitlement(_ query: ParsedQuery, isRead: Bool) throws(SecStatusFailure) {
        guard !accessGroups.isEmpty else { throw SecStatusFailure(errSecMissingEntitlement) }
        if let group = query.accessGroup, !accessGroups.contains(group) {
            // Before iOS 13 securityd did not check an explicit group on reads: the item was
            // simply not found (row 9).
            throw SecStatusFailure(isRead && configuration.runtime.major < 13 ? errSecItemNotFound : errSecMissingEntitlement)
        }
    }

    /// The rows a search query selects: its attributes, its group (or every group the app holds,
    /// row 8), its synchronizable match (row 13) and, as a plain filter, its accessibility (row 15).
    func filter(for query: ParsedQuery) -> RowFilter {
        var filter = RowFilter()
        for (spec, value) in query.attributes {
            switch spec.kind {
            case .text, .blob: filter.require(bytesOf: spec.key, equal: value)  // row 44
            default: filter.require(spec.key, equals: value)
            }
        }
        if let group = query.accessGroup {
            filter.require("agrp", equals: .text(group))
        } else {
            filter.require("agrp", in: accessGroups.map { .text($0) })
        }
        // A persistent reference names one row whatever its sync flag (securityd adds `sync = 0`
        // only to queries without one: `query_create_with_limit` in SecDbQuery.c).
        switch query.sync ?? (query.persistentRef == nil ? .localOnly : .any) {
        case .localOnly: filter.require("sync", equals: .integer(0))
        case .syncedOnly: filter.require("sync", equals: .integer(1))
        case .any: break
        }
        if let accessibility = query.accessibility {
            filter.require("pdmn", equals: .text(accessibility.rawValue))
        }
        if let reference = query.persistentRef {
            filter.require("rowid", equals: .integer(reference.rowid))
        }
        // `kSecValueRef` in a search: iOS turns the key into its attributes, among them its
        // application label, a digest of the key, so the items holding that key match. Here the
        // key's class, type and bytes pick them out.
        if let key = query.referencedKey {
            filter.require("kcls", equals: Int64(key.keyClass).map(SQLiteValue.integer) ?? .text(key.keyClass))
            filter.require("type", equals: Int64(key.keyType).map(SQLiteValue.integer) ?? .text(key.keyType))
            filter.require(bytesOf: "data", equal: .blob(key.bytes))
        }
        return filter
    }

    /// What results look like on this keychain's runtime (row 49).
    var resultBuilder: ResultBuilder { ResultBuilder(runtime: configuration.runtime) }
}
