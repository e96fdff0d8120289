import Foundation
import FileUtility
import SimRuntime

/// One stored item as an inspection tool sees it: every attribute, regardless of entitlements
/// and lock state. Tools must not print ``data``; they print a keyed digest of it.
public struct KeychainItemRecord: Hashable, Sendable {
    public var itemClass: String
    public var accessGroup: String
    public var accessible: String
    public var service: String?
    public var account: String?
    public var synchronizable: Bool
    /// Attribute values as text (bytes as hex, dates as ISO 8601), by raw key.
    public var attributes: [String: String]
    public var data: Data?
    /// The item's `kSecValuePersistentRef`.
    public var persistentReference: Data
}

extension Keychain {
    /// Every item in the store, class by class in rowid order, for inspection tools
    /// (`upgrade-runner keychain dump`). It bypasses entitlements and lock state, as an
    /// examiner with the database file would; it does not pass through the seam.
    public func dump() throws -> [KeychainItemRecord] {
        if let openError { throw openError }
        guard let store else { return [] }
        return try lockedStore {
            var records: [KeychainItemRecord] = []
            for itemClass in ItemClass.stored {
                for row in try store.select(from: itemClass, RowFilter(), limit: nil) {
                    records.append(record(row, itemClass: itemClass))
                }
            }
            return records
        }
    }

    /// A number that changes when another connection (another process, or another ``Keychain``
    /// value) commits a change to the store: SQLite's `PRAGMA data_version`. A reader that keeps
    /// one keychain open (the runner, between an app's launches) knows by it that its last
    /// ``dump()`` still holds, without reading the items again. This keychain's own calls do not
    /// change it.
    public func dataVersion() throws -> Int64 {
        if let openError { throw openError }
        guard let store else { return 0 }
        return try lockedStore { try store.database.scalarInt("PRAGMA data_version") ?? 0 }
    }

    func record(_ row: StoredRow, itemClass: ItemClass) -> KeychainItemRecord {
        var attributes: [String: String] = [:]
        for (key, value) in ResultBuilder.attributes(of: row, itemClass: itemClass) {
            attributes[key] = Self.text(value)
        }
        let data: Data? = if case .blob(let bytes)? = row["data"] { bytes } else { nil }
        return KeychainItemRecord(
            itemClass: itemClass.rawValue, accessGroup: attributes["agrp"] ?? "", accessible: attributes["pdmn"] ?? "",
            service: attributes["svce"] ?? attributes["srvr"], account: attributes["acct"],
            synchronizable: row.isSynchronizable, attributes: attributes, data: data,
            persistentReference: PersistentReference.encode(itemClass, rowid: row.rowid))
    }

    private static func text(_ value: Any) -> String {
        switch value {
        case let string as String: return string
        case let data as Data: return data.hexDigits
        case let date as Date: return InternetDate.string(from: date)
        case let control as SecAccessControl: return "\(control.protection);flags=\(control.flags.rawValue)"
        case let number as NSNumber: return number.stringValue
        default: return "\(value)"
        }
    }
}
