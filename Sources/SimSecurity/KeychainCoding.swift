import Foundation

/// `kSecValuePersistentRef` values: the class's four letters and the row's id, big-endian.
/// Rowids are never reused (AUTOINCREMENT), so a reference never names a later item.
enum PersistentReference {
    static func encode(_ itemClass: ItemClass, rowid: Int64) -> Data {
        var data = Data(itemClass.rawValue.utf8)
        withUnsafeBytes(of: rowid.bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    static func decode(_ data: Data) -> (ItemClass, Int64)? {
        let bytes = [UInt8](data)
        guard bytes.count == 12, let itemClass = ItemClass(rawValue: String(decoding: bytes[0..<4], as: UTF8.self)) else {
            return nil
        }
        let rowid = bytes[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return (itemClass, rowid)
    }
}

/// Stores an access-control object in the `accc` column as `protection;flags`.
enum AccessControlCoding {
    static func encode(_ control: SecAccessControl) -> String { "\(control.protection);\(control.flags.rawValue)" }

    static func decode(_ text: String) -> SecAccessControl? {
        let parts = text.split(separator: ";")
        guard parts.count == 2, let flags = UInt(parts[1]) else { return nil }
        return SecAccessControl(protection: String(parts[0]), flags: SecAccessControlCreateFlags(rawValue: flags))
    }
}
