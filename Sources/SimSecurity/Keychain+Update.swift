import Foundation
import SimRuntime

// SecItemUpdate.
extension Keychain {
    func updateItems(
        _ queryDictionary: QueryEntries, _ attributesDictionary: CFDictionary,
        _ store: KeychainStore
    ) throws {
        let query = try QueryParser.parse(queryDictionary)
        // iOS refuses return keys (row 26) and any match key (row 27) in an update's query.
        guard query.returns.isEmpty, query.limit == nil, !query.otherMatchKeys else { throw SecStatusFailure(errSecParam) }
        let changes = try QueryParser.parseUpdate(attributesDictionary, for: query.itemClass)
        if case .some(.none) = changes.valueData { throw SecStatusFailure(errSecParam) }  // row 25
        if changes.sync == .any { throw SecStatusFailure(errSecParam) }
        try checkEntitlement(query, isRead: false)
        if let group = changes.accessGroup, !accessGroups.contains(group) {
            // Moving an item into a group the app does not hold (row 10).
            throw SecStatusFailure(configuration.runtime.major < 13 ? errSecNoAccessForItem : errSecMissingEntitlement)
        }
        guard query.itemClass != .identity else { throw SecStatusFailure(errSecItemNotFound) }
        let newAccessibility: Accessibility? =
            changes.accessControl != nil || changes.accessibility != nil
            ? try resolvedAccessibility(changes, default: nil) : nil
        if newAccessibility == .whenPasscodeSetThisDeviceOnly && !configuration.passcodeSet {
            throw SecStatusFailure(errSecAuthFailed)
        }

        var assignments: [(String, SQLiteValue)] = changes.attributes.map { ($0.spec.key, $0.value) }
        if let group = changes.accessGroup { assignments.append(("agrp", .text(group))) }
        if let newAccessibility { assignments.append(("pdmn", .text(newAccessibility.rawValue))) }
        if let control = changes.accessControl {
            assignments.append(
                ("accc", .text(AccessControlCoding.encode(control, biometryGeneration: configuration.biometryGeneration))))
        }
        if case .some(.some(let data)) = changes.valueData { assignments.append(("data", .blob(data))) }
        if let sync = changes.sync { assignments.append(("sync", .integer(sync == .syncedOnly ? 1 : 0))) }
        if !assignments.contains(where: { $0.0 == "mdat" }) {
            assignments.append(("mdat", .real(configuration.clock().timeIntervalSinceReferenceDate)))  // row 28
        }

        try store.database.transaction(immediate: true) {
            let rows = try store.select(from: query.itemClass, filter(for: query), limit: nil)  // row 28: all matches
            guard !rows.isEmpty else { throw SecStatusFailure(errSecItemNotFound) }
            let view = lockView
            for row in rows {
                // Re-encryption needs the item's class key and the new one (row 38).
                guard let current = row.accessibility, current.isAvailable(in: view),
                    newAccessibility?.isAvailable(in: view) ?? true
                else {
                    throw SecStatusFailure(errSecInteractionNotAllowed)
                }
                let synced = changes.sync.map { $0 == .syncedOnly } ?? row.isSynchronizable
                // As for an add: items with access control never sync; ThisDeviceOnly may (row 14).
                let controlled = changes.accessControl != nil || row["accc"].map { $0 != .null } == true
                if synced && controlled { throw SecStatusFailure(errSecParam) }
            }
            for row in rows {
                do throws(SQLiteError) {
                    try store.update(query.itemClass, rowid: row.rowid, assignments)
                } catch {
                    throw Self.duplicateIfConstraint(error)  // row 29: the whole update rolls back
                }
            }
        }
    }
}
