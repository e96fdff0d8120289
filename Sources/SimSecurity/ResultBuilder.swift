import Foundation
import SimRuntime

/// Builds what `SecItemCopyMatching` (and `SecItemAdd` with return keys) hands back (rows 22–24, 49).
struct ResultBuilder {
    /// The device's runtime: from iOS 11.3 returned attributes carry `kSecAttrAccessControl` (row 49).
    var runtime: RuntimeVersion

    /// - Returns: nil when no return key was given, or only `kSecReturnRef` for a class whose
    ///   items have no reference type here (row 23; keys have one, ``SecKey``).
    func result(for rows: [StoredRow], itemClass: ItemClass, returns: ReturnKeys, limit: MatchLimit) -> CFTypeRef? {
        let values = rows.compactMap { item(for: $0, itemClass: itemClass, returns: returns) }
        if limit.returnsArray {
            // Nothing returnable (no return key, or only kSecReturnRef on a password): nil (row 23).
            return values.isEmpty ? nil : NSArray(array: values)
        }
        return values.first
    }

    private func item(for row: StoredRow, itemClass: ItemClass, returns: ReturnKeys) -> AnyObject? {
        let data: Data? = if case .blob(let bytes)? = row["data"] { bytes } else { nil }
        let reference = PersistentReference.encode(itemClass, rowid: row.rowid)
        // Keys have a reference type (SecKey); passwords have none (row 23).
        let key =
            itemClass == .key && returns.contains(.ref)
            ? SecKey.stored(attributes: Self.attributes(of: row, itemClass: itemClass), bytes: data) : nil
        switch returns {
        case .data: return data.map { NSData(data: $0) }
        case .persistentRef: return NSData(data: reference)
        case .attributes: return NSDictionary(dictionary: returnedAttributes(of: row, itemClass: itemClass))
        case .ref: return key
        case []: return nil
        default:
            var dictionary = returns.contains(.attributes) ? returnedAttributes(of: row, itemClass: itemClass) : [:]
            if returns.contains(.data), let data { dictionary["v_Data"] = data }
            if returns.contains(.persistentRef) { dictionary["v_PersistentRef"] = reference }
            if let key { dictionary["v_Ref"] = key }
            return NSDictionary(dictionary: dictionary)
        }
    }

    /// The attributes `kSecReturnAttributes` gives: the stored ones and, from iOS 11.3, an access
    /// control object made from the protection class when the item was added without one (row 49).
    private func returnedAttributes(of row: StoredRow, itemClass: ItemClass) -> [String: Any] {
        var dictionary = Self.attributes(of: row, itemClass: itemClass)
        if dictionary["accc"] == nil, runtime >= RuntimeVersion(major: 11, minor: 3), let protection = row.accessibility {
            dictionary["accc"] = SecAccessControl(protection: protection.rawValue, flags: [])
        }
        return dictionary
    }

    /// The item's stored attributes under their raw keys.
    static func attributes(of row: StoredRow, itemClass: ItemClass) -> [String: Any] {
        var dictionary: [String: Any] = ["class": itemClass.rawValue]
        for spec in itemClass.attributes {
            guard let stored = row[spec.key], let value = value(stored, kind: spec.kind) else { continue }
            dictionary[spec.key] = value
        }
        if case .text(let encoded)? = row["accc"], let control = AccessControlCoding.decode(encoded) {
            dictionary["accc"] = control
        }
        return dictionary
    }

    private static func value(_ stored: SQLiteValue, kind: AttributeKind) -> Any? {
        switch (stored, kind) {
        case (.null, _): return nil
        case (.text(let string), _): return string
        case (.blob(let data), _): return data
        case (.integer(let number), .bool): return NSNumber(value: number != 0)
        case (.integer(let number), .fourCC): return QueryParser.fourCCString(number)
        case (.integer(let number), _): return NSNumber(value: number)
        case (.real(let seconds), .date): return Date(timeIntervalSinceReferenceDate: seconds)
        case (.real(let number), _): return NSNumber(value: number)
        }
    }
}
