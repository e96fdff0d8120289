import Foundation

/// A keychain call that cannot go on, with the OSStatus it answers: internal to SimSecurity, whose
/// callers see only the status (an app names its own failures, as LedgerKit's `KeychainFailure`).
struct SecStatusFailure: Error, Equatable {
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
    /// The key a search's `kSecValueRef` names: the items holding it match (their class, type and
    /// bytes are the key's).
    var referencedKey: SecKey?
    /// `kSecValuePersistentRef`, decoded: the class and row it names.
    var persistentRef: (itemClass: ItemClass, rowid: Int64)?
}

/// A query dictionary's entries with string keys, in key order, so that a query with two faults
/// always reports the same one. Read once per call, through `allKeys` and `allValues`, which hand
/// out the stored objects: corelibs' other readers (iteration, `object(forKey:)`, `getObjects`)
/// bridge every value to Swift, and bridging an NSData copies it byte by byte. The first version,
/// which iterated and copied the entries into a Swift dictionary, spent a fifth of an add there.
struct QueryEntries {
    private(set) var pairs: [(key: String, value: QueryValue)] = []
    /// Whether every key was a string (securityd answers errSecParam otherwise).
    private(set) var stringKeys = true
    /// The values the parser and the seam's log look up by key, kept as they are read (a scan
    /// of the pairs, comparing strings and copying values, cost more than reading them).
    private(set) var itemClass: QueryValue?
    private(set) var persistentRef: QueryValue?
    private(set) var service: String?
    private(set) var server: String?
    private(set) var account: String?

    init(_ dictionary: NSDictionary) {
        // Both come from one storage in one order (corelibs' `Array(_storage.keys)`, `.values`).
        let keys = dictionary.allKeys
        let values = dictionary.allValues
        let count = min(keys.count, values.count)
        pairs.reserveCapacity(count)
        // Indices, not zip, and an insertion sort of the handful of keys, not sort(by:): in a
        // debug app build each new generic sequence type cost the launch a scan of the
        // executable's conformance records on first use. The keys are distinct, so any sort
        // gives this order.
        var index = 0
        while index < count {
            let key = keys[index]
            let value = values[index]
            index += 1
            guard let key = Self.string(key) else {
                stringKeys = false
                continue
            }
            let native = Self.native(value)
            switch key {
            case "class": itemClass = native
            case "v_PersistentRef": persistentRef = native
            case "svce": service = native.string
            case "srvr": server = native.string
            case "acct": account = native.string
            default: break
            }
            pairs.append((key, native))
            var position = pairs.count - 1
            while position > 0, pairs[position].key < pairs[position - 1].key {
                pairs.swapAt(position, position - 1)
                position -= 1
            }
        }
    }

    /// The entries, or errSecParam when a key is not a string.
    func checked() throws(SecStatusFailure) -> QueryEntries {
        guard stringKeys else { throw SecStatusFailure(errSecParam) }
        return self
    }

    /// A key as a Swift string. The metatype test is cheap; a bridging cast from `Any` costs
    /// about a thousand instructions, and a query has a handful of keys.
    private static func string(_ key: Any) -> String? {
        if type(of: key) is NSString.Type { return (key as! NSString) as String }
        return key as? String
    }

    /// A value with its strings and bytes made Swift's once, so that the log's subject and the
    /// parser read them without casting again; an NSData's buffer is copied in one piece.
    private static func native(_ value: Any) -> QueryValue {
        let type = type(of: value)
        if type is NSString.Type { return .string((value as! NSString) as String) }
        if type is NSNumber.Type { return .object(value as AnyObject) }
        if type is NSData.Type {
            let data = value as! NSData
            return .data(Data(bytes: data.bytes, count: data.length))
        }
        if let string = value as? String { return .string(string) }
        if let data = value as? Data { return .data(data) }
        return .object(value as AnyObject)
    }
}

/// A query value as the parser reads it: a string, bytes, or another object (numbers, booleans,
/// dates, access-control objects). Casting an `Any` to a struct costs about a thousand
/// instructions, and copying an `Any` goes through its type's witnesses; the parser asks each
/// value several questions.
enum QueryValue {
    case string(String)
    case data(Data)
    case object(AnyObject)

    var string: String? { if case .string(let string) = self { string } else { nil } }
    var data: Data? { if case .data(let data) = self { data } else { nil } }
    var any: Any {
        switch self {
        case .string(let string): string
        case .data(let data): data
        case .object(let object): object
        }
    }
}

enum QueryParser {
    /// Reads a SecItem query (or an add's attribute dictionary).
    ///
    /// The class comes from `kSecClass`, else from the persistent reference (row 46, securityd's
    /// `query_get_class`); a reference of another class than `kSecClass` is errSecNoSuchClass.
    static func parse(_ entries: QueryEntries) throws(SecStatusFailure) -> ParsedQuery {
        let reference = try entries.persistentRef.map { value throws(SecStatusFailure) in try persistentReference(value) }
        let itemClass: ItemClass
        if let classString = entries.itemClass?.string {
            guard let named = ItemClass(rawValue: classString) else { throw SecStatusFailure(errSecNoSuchClass) }
            if let reference, reference.itemClass != named { throw SecStatusFailure(errSecNoSuchClass) }
            itemClass = named
        } else if let reference {
            itemClass = reference.itemClass
        } else if entries.pairs.contains(where: { $0.key == "v_Ref" && $0.value.any is SecKey }) {
            // A key reference brings its class, as the attributes iOS turns it into do.
            itemClass = .key
        } else {
            throw SecStatusFailure(errSecParam)
        }
        var query = ParsedQuery(itemClass: itemClass)
        query.persistentRef = reference
        for (key, value) in entries.pairs where key != "class" && key != "v_PersistentRef" {
            try apply(key: key, value: value, to: &query)
        }
        return query
    }

    /// A `kSecValuePersistentRef` value that names a row; anything else is errSecParam.
    private static func persistentReference(
        _ value: QueryValue
    ) throws(SecStatusFailure) -> (itemClass: ItemClass, rowid: Int64) {
        guard let data = value.data, let decoded = PersistentReference.decode(data) else {
            throw SecStatusFailure(errSecParam)
        }
        return (decoded.0, decoded.1)
    }

    /// Reads the attributes-to-update dictionary of `SecItemUpdate` for items of `itemClass`.
    static func parseUpdate(_ dictionary: NSDictionary, for itemClass: ItemClass) throws(SecStatusFailure) -> ParsedQuery {
        var update = ParsedQuery(itemClass: itemClass)
        for (key, value) in try QueryEntries(dictionary).checked().pairs {
            if key == "class" {
                // Changing an item's class is not an update; naming the same class is harmless.
                guard value.string == itemClass.rawValue else { throw SecStatusFailure(errSecParam) }
                continue
            }
            guard key.utf16.count == 4 || key == "v_Data" else { throw SecStatusFailure(errSecParam) }
            try apply(key: key, value: value, to: &update)
        }
        return update
    }

    private static func apply(key: String, value: QueryValue, to query: inout ParsedQuery) throws(SecStatusFailure) {
        if key.utf16.count == 4 {
            try applyAttribute(key: key, value: value, to: &query)
            return
        }
        switch key {
        case "m_Limit": query.limit = try matchLimit(value)
        case "r_Data": if try returnFlag(value.any) { query.returns.insert(.data) }
        case "r_Attributes": if try returnFlag(value.any) { query.returns.insert(.attributes) }
        case "r_Ref": if try returnFlag(value.any) { query.returns.insert(.ref) }
        case "r_PersistentRef": if try returnFlag(value.any) { query.returns.insert(.persistentRef) }
        case "v_Data": query.valueData = .some(value.data)
        case "v_Ref":
            query.valueRef = true
            // Through `Any`, as an add opens it (``Keychain/expandingKeyReference(_:)``).
            if let key = value.any as? SecKey {
                // Its attributes are a key's: another class has no such attributes (row 17).
                guard query.itemClass == .key else { throw SecStatusFailure(errSecNoSuchAttr) }
                query.referencedKey = key
            }
        case "v_PersistentRef": query.persistentRef = try persistentReference(value)
        default:
            if key.hasPrefix("m_") {
                query.otherMatchKeys = true
            } else if key.hasPrefix("u_") {
                // Authentication context, UI policy and prompt: SimSecurity shows no UI.
            } else {
                throw SecStatusFailure(errSecParam)
            }
        }
    }

    private static func applyAttribute(key: String, value: QueryValue, to query: inout ParsedQuery) throws(SecStatusFailure) {
        switch key {
        case "nleg":
            return  // kSecUseDataProtectionKeychain: ignored on iOS (row 19).
        case "sync":
            if let marker = value.string {
                guard marker == "syna" else { throw SecStatusFailure(errSecParam) }
                query.sync = .any
            } else {
                query.sync = try flag(value.any) ? .syncedOnly : .localOnly
            }
            return
        case "agrp":
            guard let group = value.string else { throw SecStatusFailure(errSecParam) }
            query.accessGroup = group
            return
        case "pdmn":
            guard let raw = value.string, let accessibility = Accessibility(rawValue: raw) else {
                throw SecStatusFailure(errSecParam)
            }
            query.accessibility = accessibility
            return
        case "accc":
            guard let control = value.any as? SecAccessControl else { throw SecStatusFailure(errSecParam) }
            query.accessControl = control
            return
        default:
            break
        }
        guard let spec = query.itemClass.attribute(key) else { throw SecStatusFailure(errSecNoSuchAttr) }
        query.attributes.append((spec, try convert(value, to: spec.kind)))
    }

    /// Converts a caller's value to the stored form of an attribute of `kind`.
    ///
    /// Strings and bytes keep their type (a search returns what was added) but compare as bytes
    /// (row 44); a number given for them is its 4-byte value, as securityd's `copyBlob` makes it.
    /// A number attribute given a non-numeric string keeps the string (row 48, `copyNumber`).
    static func convert(_ value: QueryValue, to kind: AttributeKind) throws(SecStatusFailure) -> SQLiteValue {
        switch (kind, value) {
        case (.text, .string(let string)), (.blob, .string(let string)): return .text(string)
        case (.text, .data(let data)), (.blob, .data(let data)): return .blob(data)
        case (.text, .object(let object)), (.blob, .object(let object)):
            if !isBoolean(object), let number = object as? NSNumber {
                return .blob(withUnsafeBytes(of: number.int32Value.littleEndian) { Data($0) })
            }
        case (.integer, .string(let string)): return Int64(string).map { .integer($0) } ?? .text(string)
        case (.integer, .object(let object)):
            if let number = integer(object) { return .integer(number) }
        case (.bool, _):
            return .integer(try flag(value.any) ? 1 : 0)
        case (.date, .object(let object)):
            if let date = object as? Date { return .real(date.timeIntervalSinceReferenceDate) }
        case (.fourCC, .string(let code)):
            if let packed = fourCC(code) ?? Int64(code) { return .integer(packed) }
        case (.fourCC, .object(let object)):
            if let number = integer(object) { return .integer(number) }
        default:
            break
        }
        throw SecStatusFailure(errSecParam)
    }

    /// Whether a value is a boolean (a Swift Bool or a CFBoolean), not a number that is 0 or 1.
    private static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return number.objCType.pointee == CChar(UInt8(ascii: "c"))
    }

    private static func integer(_ value: Any) -> Int64? {
        if isBoolean(value) { return nil }
        if let number = value as? Int { return Int64(number) }
        if let string = value as? String { return Int64(string) }
        return nil
    }

    /// A return key's value: only a CFBoolean (row 45, securityd's `query_add_return`).
    private static func returnFlag(_ value: Any) throws(SecStatusFailure) -> Bool {
        guard isBoolean(value) else { throw SecStatusFailure(errSecParam) }
        return try flag(value)
    }

    /// A CFBoolean, a Bool, or a number (non-zero is true).
    static func flag(_ value: Any) throws(SecStatusFailure) -> Bool {
        if let bool = value as? Bool { return bool }
        if let number = value as? Int { return number != 0 }
        throw SecStatusFailure(errSecParam)
    }

    private static func matchLimit(_ queryValue: QueryValue) throws(SecStatusFailure) -> MatchLimit {
        let value = queryValue.any
        if let string = queryValue.string {
            switch string {
            case "m_LimitOne": return .one
            case "m_LimitAll": return .all
            default: throw SecStatusFailure(errSecParam)
            }
        }
        guard !isBoolean(value), let number = value as? Int, number > 0 else { throw SecStatusFailure(errSecParam) }
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
