import Foundation

/// A keychain call that cannot go on, with the OSStatus it answers.
struct KeychainFailure: Error, Equatable {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}

/// Which items a query matches by `kSecAttrSynchronizable` (row 13).
enum SyncMatch: Equatable {
    case localOnly, syncedOnly, any
}

/// How many results `SecItemCopyMatching` returns (row 20).
enum MatchLimit: Equatable {
    case one
    case all
    case count(Int)

    var rowLimit: Int? {
        switch self {
        case .one: 1
        case .all: nil
        case .count(let n): n
        }
    }

    /// Whether the result is an array: every limit but one, even with a single hit.
    var returnsArray: Bool { self != .one }
}

/// What a caller asked to get back (`kSecReturn…`).
struct ReturnKeys: OptionSet {
    let rawValue: Int
    static let data = ReturnKeys(rawValue: 1)
    static let attributes = ReturnKeys(rawValue: 2)
    static let ref = ReturnKeys(rawValue: 4)
    static let persistentRef = ReturnKeys(rawValue: 8)
}

/// A query dictionary read into typed parts, following securityd's dispatch by key shape
/// (section 0): `class`; four-character keys are attributes; otherwise the first letter
/// (`m_`, `r_`, `u_`, `v_`) decides; anything else is errSecParam.
struct ParsedQuery {
    var itemClass: ItemClass
    /// Attributes other than agrp, sync and pdmn, sorted by key.
    var attributes: [(spec: AttributeSpec, value: SQLiteValue)] = []
    var accessGroup: String?
    var sync: SyncMatch?
    var accessibility: Accessibility?
    var accessControl: SecAccessControl?
    var returns: ReturnKeys = []
    var limit: MatchLimit?
    /// Match keys other than `kSecMatchLimit`.
    var otherMatchKeys = false
    /// `kSecValueData` when present: nil inside means present but not a CFData (row 25).
    var valueData: Data??
    var valueRef = false
    /// `kSecValuePersistentRef`, decoded: the class and row it names.
    var persistentRef: (itemClass: ItemClass, rowid: Int64)?
}

enum QueryParser {
    /// Reads a SecItem query (or an add's attribute dictionary).
    ///
    /// The class comes from `kSecClass`, else from the persistent reference (row 46, securityd's
    /// `query_get_class`); a reference of another class than `kSecClass` is errSecNoSuchClass.
    static func parse(_ dictionary: NSDictionary) throws(KeychainFailure) -> ParsedQuery {
        let entries = try stringKeyed(dictionary)
        let reference = try entries["v_PersistentRef"].map { value throws(KeychainFailure) in try persistentReference(value) }
        let itemClass: ItemClass
        if let classString = entries["class"] as? String {
            guard let named = ItemClass(rawValue: classString) else { throw KeychainFailure(errSecNoSuchClass) }
            if let reference, reference.itemClass != named { throw KeychainFailure(errSecNoSuchClass) }
            itemClass = named
        } else if let reference {
            itemClass = reference.itemClass
        } else {
            throw KeychainFailure(errSecParam)
        }
        var query = ParsedQuery(itemClass: itemClass)
        query.persistentRef = reference
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) where key != "class" && key != "v_PersistentRef" {
            try apply(key: key, value: value, to: &query)
        }
        return query
    }

    /// A `kSecValuePersistentRef` value that names a row; anything else is errSecParam.
    private static func persistentReference(_ value: Any) throws(KeychainFailure) -> (itemClass: ItemClass, rowid: Int64) {
        guard let data = value as? Data, let decoded = PersistentReference.decode(data) else {
            throw KeychainFailure(errSecParam)
        }
        return (decoded.0, decoded.1)
    }

    /// Reads the attributes-to-update dictionary of `SecItemUpdate` for items of `itemClass`.
    static func parseUpdate(_ dictionary: NSDictionary, for itemClass: ItemClass) throws(KeychainFailure) -> ParsedQuery {
        var update = ParsedQuery(itemClass: itemClass)
        for (key, value) in try stringKeyed(dictionary).sorted(by: { $0.key < $1.key }) {
            if key == "class" {
                // Changing an item's class is not an update; naming the same class is harmless.
                guard (value as? String) == itemClass.rawValue else { throw KeychainFailure(errSecParam) }
                continue
            }
            guard key.count == 4 || key == "v_Data" else { throw KeychainFailure(errSecParam) }
            try apply(key: key, value: value, to: &update)
        }
        return update
    }

    private static func stringKeyed(_ dictionary: NSDictionary) throws(KeychainFailure) -> [String: Any] {
        var entries: [String: Any] = [:]
        for (key, value) in dictionary {
            guard let key = key as? String else { throw KeychainFailure(errSecParam) }
            entries[key] = value
        }
        return entries
    }

    private static func apply(key: String, value: Any, to query: inout ParsedQuery) throws(KeychainFailure) {
        if key.count == 4 {
            try applyAttribute(key: key, value: value, to: &query)
            return
        }
        switch key {
        case "m_Limit": query.limit = try matchLimit(value)
        case "r_Data": if try returnFlag(value) { query.returns.insert(.data) }
        case "r_Attributes": if try returnFlag(value) { query.returns.insert(.attributes) }
        case "r_Ref": if try returnFlag(value) { query.returns.insert(.ref) }
        case "r_PersistentRef": if try returnFlag(value) { query.returns.insert(.persistentRef) }
        case "v_Data": query.valueData = .some(value as? Data)
        case "v_Ref": query.valueRef = true
        case "v_PersistentRef": query.persistentRef = try persistentReference(value)
        default:
            if key.hasPrefix("m_") {
                query.otherMatchKeys = true
            } else if key.hasPrefix("u_") {
                // Authentication context, UI policy and prompt: SimSecurity shows no UI.
            } else {
                throw KeychainFailure(errSecParam)
            }
        }
    }

    private static func applyAttribute(key: String, value: Any, to query: inout ParsedQuery) throws(KeychainFailure) {
        switch key {
        case "nleg":
            return  // kSecUseDataProtectionKeychain: ignored on iOS (row 19).
        case "sync":
            if let marker = value as? String {
                guard marker == "syna" else { throw KeychainFailure(errSecParam) }
                query.sync = .any
            } else {
                query.sync = try flag(value) ? .syncedOnly : .localOnly
            }
            return
        case "agrp":
            guard let group = value as? String else { throw KeychainFailure(errSecParam) }
            query.accessGroup = group
            return
        case "pdmn":
            guard let raw = value as? String, let accessibility = Accessibility(rawValue: raw) else {
                throw KeychainFailure(errSecParam)
            }
            query.accessibility = accessibility
            return
        case "accc":
            guard let control = value as? SecAccessControl else { throw KeychainFailure(errSecParam) }
            query.accessControl = control
            return
        default:
            break
        }
        guard let spec = query.itemClass.attribute(key) else { throw KeychainFailure(errSecNoSuchAttr) }
        query.attributes.append((spec, try convert(value, to: spec.kind)))
    }

    /// Converts a caller's value to the stored form of an attribute of `kind`.
    ///
    /// Strings and bytes keep their type (a search returns what was added) but compare as bytes
    /// (row 44); a number given for them is its 4-byte value, as securityd's `copyBlob` makes it.
    /// A number attribute given a non-numeric string keeps the string (row 48, `copyNumber`).
    static func convert(_ value: Any, to kind: AttributeKind) throws(KeychainFailure) -> SQLiteValue {
        switch kind {
        case .text, .blob:
            if let string = value as? String { return .text(string) }
            if let data = value as? Data { return .blob(data) }
            if !isBoolean(value), let number = value as? NSNumber {
                return .blob(withUnsafeBytes(of: number.int32Value.littleEndian) { Data($0) })
            }
        case .integer:
            if let number = integer(value) { return .integer(number) }
            if let string = value as? String { return .text(string) }
        case .bool:
            return .integer(try flag(value) ? 1 : 0)
        case .date:
            if let date = value as? Date { return .real(date.timeIntervalSinceReferenceDate) }
        case .fourCC:
            if let code = value as? String, let packed = fourCC(code) { return .integer(packed) }
            if let number = integer(value) { return .integer(number) }
        }
        throw KeychainFailure(errSecParam)
    }

    /// Whether a value is a boolean (a Swift Bool or a CFBoolean), not a number that is 0 or 1.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func integer(_ value: Any) -> Int64? {
        if isBoolean(value) { return nil }
        if let number = value as? Int { return Int64(number) }
        if let string = value as? String { return Int64(string) }
        return nil
    }

    /// A return key's value: only a CFBoolean (row 45, securityd's `query_add_return`).
    private static func returnFlag(_ value: Any) throws(KeychainFailure) -> Bool {
        guard isBoolean(value) else { throw KeychainFailure(errSecParam) }
        return try flag(value)
    }

    /// A CFBoolean, a Bool, or a number (non-zero is true).
    static func flag(_ value: Any) throws(KeychainFailure) -> Bool {
        if let bool = value as? Bool { return bool }
        if let number = value as? Int { return number != 0 }
        throw KeychainFailure(errSecParam)
    }

    private static func matchLimit(_ value: Any) throws(KeychainFailure) -> MatchLimit {
        if let string = value as? String {
            switch string {
            case "m_LimitOne": return .one
            case "m_LimitAll": return .all
            default: throw KeychainFailure(errSecParam)
            }
        }
        guard !isBoolean(value), let number = value as? Int, number > 0 else { throw KeychainFailure(errSecParam) }
        return number == 1 ? .one : .count(number)
    }

    /// Packs a four-character code such as "htps" into its big-endian integer.
    static func fourCC(_ code: String) -> Int64? {
        let bytes = Array(code.utf8)
        guard bytes.count == 4 else { return nil }
        return bytes.reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// Unpacks a four-character code; nil for zero (no protocol).
    static func fourCCString(_ packed: Int64) -> String? {
        guard packed != 0 else { return nil }
        let bytes = (0..<4).reversed().map { UInt8(truncatingIfNeeded: packed >> (8 * Int64($0))) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
