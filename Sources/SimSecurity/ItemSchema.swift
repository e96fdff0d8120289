import Foundation
import SimRuntime

/// How an attribute's value is stored and compared.
enum AttributeKind: Sendable {
    /// A string (a CFData is accepted too and kept as bytes): acct, svce, labl, ...
    case text
    /// Bytes (a string is accepted too and kept as text): gena, atag, issr, ...
    case blob
    /// A number; numeric strings such as `kSecAttrKeyTypeRSA` ("42") are accepted.
    case integer
    /// A boolean, stored as 0 or 1.
    case bool
    /// A date.
    case date
    /// A four-character code such as `kSecAttrProtocolHTTPS` ("htps"), stored as its 32-bit integer.
    case fourCC
}

/// One attribute of an item class: its raw key, kind, and whether it is part of the primary key.
struct AttributeSpec: Sendable {
    let key: String
    let kind: AttributeKind
    let primaryKey: Bool
    /// Its position among its class's columns (set when the class's list is made).
    fileprivate(set) var column = -1

    init(_ key: String, _ kind: AttributeKind, primaryKey: Bool = false) {
        self.key = key
        self.kind = kind
        self.primaryKey = primaryKey
    }

    /// The value a primary-key attribute gets when an add leaves it out (behaviour row 4).
    var defaultValue: SQLiteValue {
        switch kind {
        case .text: .text("")
        case .blob: .blob(Data())
        case .integer, .bool, .fourCC: .integer(0)
        case .date: .real(0)
        }
    }
}

/// The keychain's item classes, each with its table, attributes and primary key
/// (behaviour rows 1–3, from securityd's SecItemSchema.c).
enum ItemClass: String, CaseIterable, Sendable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    /// Identities are certificate + key pairs; SimSecurity stores no identities (it has no
    /// SecCertificate or SecKey), so searches answer errSecItemNotFound and adds errSecParam.
    case identity = "idnt"

    var table: String { rawValue }

    /// Attributes every storable class has. `agrp` and `sync` end every primary key.
    ///
    /// A new attribute here is a new column of every existing keychain file too: bump
    /// `KeychainStore.schemaVersion`, add its one-transaction migration beside `migrateToByteKeys`
    /// (`ALTER TABLE ... ADD COLUMN` for each class that has it, then the new `tversion` row), and,
    /// when it can hold an app's bytes rather than a name, add it to `DeviceRedaction.valueAttributes`
    /// (SimDevice) so snapshots and dumps show only its keyed digest (docs/extending.md).
    private static let common: [AttributeSpec] = [
        AttributeSpec("agrp", .text, primaryKey: true), AttributeSpec("sync", .bool, primaryKey: true),
        AttributeSpec("pdmn", .text), AttributeSpec("labl", .text),
        AttributeSpec("cdat", .date), AttributeSpec("mdat", .date),
    ]

    private static let passwordExtras: [AttributeSpec] = [
        AttributeSpec("desc", .text), AttributeSpec("icmt", .text), AttributeSpec("crtr", .integer),
        AttributeSpec("type", .integer), AttributeSpec("invi", .bool), AttributeSpec("nega", .bool),
    ]

    /// The class's attributes in column order (made once: every call reads them).
    var attributes: [AttributeSpec] {
        switch self {
        case .genericPassword: Self.genpAttributes
        case .internetPassword: Self.inetAttributes
        case .certificate: Self.certAttributes
        case .key: Self.keysAttributes
        case .identity: Self.idntAttributes
        }
    }

    private static let genpAttributes = ItemClass.genericPassword.numberedAttributes
    private static let inetAttributes = ItemClass.internetPassword.numberedAttributes
    private static let certAttributes = ItemClass.certificate.numberedAttributes
    private static let keysAttributes = ItemClass.key.numberedAttributes
    private static let idntAttributes = ItemClass.identity.numberedAttributes

    private var numberedAttributes: [AttributeSpec] {
        declaredAttributes.enumerated().map { position, spec in
            var numbered = spec
            numbered.column = position
            return numbered
        }
    }
    private static let genpKey = genpAttributes.filter(\.primaryKey)
    private static let inetKey = inetAttributes.filter(\.primaryKey)
    private static let certKey = certAttributes.filter(\.primaryKey)
    private static let keysKey = keysAttributes.filter(\.primaryKey)
    private static let idntKey = idntAttributes.filter(\.primaryKey)

    private var declaredAttributes: [AttributeSpec] {
        switch self {
        case .genericPassword:
            return [
                AttributeSpec("acct", .text, primaryKey: true), AttributeSpec("svce", .text, primaryKey: true),
                AttributeSpec("gena", .blob),
            ] + Self.passwordExtras + Self.common
        case .internetPassword:
            return [
                AttributeSpec("acct", .text, primaryKey: true), AttributeSpec("sdmn", .text, primaryKey: true),
                AttributeSpec("srvr", .text, primaryKey: true), AttributeSpec("ptcl", .fourCC, primaryKey: true),
                AttributeSpec("atyp", .text, primaryKey: true), AttributeSpec("port", .integer, primaryKey: true),
                AttributeSpec("path", .text, primaryKey: true),
            ] + Self.passwordExtras + Self.common
        case .certificate:
            return [
                AttributeSpec("ctyp", .integer, primaryKey: true), AttributeSpec("issr", .blob, primaryKey: true),
                AttributeSpec("slnr", .blob, primaryKey: true), AttributeSpec("cenc", .integer),
                AttributeSpec("subj", .blob), AttributeSpec("skid", .blob), AttributeSpec("pkhh", .blob),
            ] + Self.common
        case .key:
            return [
                AttributeSpec("kcls", .integer, primaryKey: true), AttributeSpec("klbl", .blob, primaryKey: true),
                AttributeSpec("atag", .blob, primaryKey: true), AttributeSpec("crtr", .integer, primaryKey: true),
                AttributeSpec("type", .integer, primaryKey: true), AttributeSpec("bsiz", .integer, primaryKey: true),
                AttributeSpec("esiz", .integer, primaryKey: true), AttributeSpec("sdat", .date, primaryKey: true),
                AttributeSpec("edat", .date, primaryKey: true), AttributeSpec("perm", .bool),
                AttributeSpec("encr", .bool), AttributeSpec("decr", .bool), AttributeSpec("drve", .bool),
                AttributeSpec("sign", .bool), AttributeSpec("vrfy", .bool), AttributeSpec("wrap", .bool),
                AttributeSpec("unwp", .bool),
            ] + Self.common
        case .identity:
            return ItemClass.certificate.declaredAttributes + ItemClass.key.declaredAttributes.filter { !$0.primaryKey }
        }
    }

    /// The attribute named `key`, or nil when the class has no such attribute (row 17). A scan:
    /// the keys are short strings compared inline, cheaper than hashing them.
    func attribute(_ key: String) -> AttributeSpec? {
        for spec in attributes where spec.key == key { return spec }
        return nil
    }

    var primaryKey: [AttributeSpec] {
        switch self {
        case .genericPassword: Self.genpKey
        case .internetPassword: Self.inetKey
        case .certificate: Self.certKey
        case .key: Self.keysKey
        case .identity: Self.idntKey
        }
    }

    /// The classes that have a table.
    static let stored: [ItemClass] = [.genericPassword, .internetPassword, .certificate, .key]

    /// Protection class of an item added without one (row 6).
    var defaultAccessibility: Accessibility { self == .certificate ? .always : .whenUnlocked }
}

/// The seven protection classes (`pdmn`), and what the lock state allows for each (rows 32–34).
enum Accessibility: String, CaseIterable, Sendable {
    case whenUnlocked = "ak"
    case afterFirstUnlock = "ck"
    case always = "dk"
    case whenUnlockedThisDeviceOnly = "aku"
    case afterFirstUnlockThisDeviceOnly = "cku"
    case alwaysThisDeviceOnly = "dku"
    case whenPasscodeSetThisDeviceOnly = "akpu"

    var isThisDeviceOnly: Bool { rawValue.hasSuffix("u") }

    /// Whether the class key that protects items of this class is available in `state`.
    func isAvailable(in state: LockStateView) -> Bool {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: state.unlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: state.unlockedSinceBoot
        case .always, .alwaysThisDeviceOnly: true
        }
    }
}

/// The two facts about the lock state that the keychain needs.
struct LockStateView {
    var unlocked: Bool
    var unlockedSinceBoot: Bool

    init(unlocked: Bool, unlockedSinceBoot: Bool) {
        self.unlocked = unlocked
        self.unlockedSinceBoot = unlockedSinceBoot
    }

    init(_ state: LockState) {
        self.init(unlocked: state.isProtectedDataAvailable, unlockedSinceBoot: state.hasBeenUnlockedSinceBoot)
    }
}

extension Keychain {
    /// Whether an item of protection class `pdmn` (`ak`, `cku`, ...) can be read in `state`: the
    /// keychain's own rule (behaviour rows 32–34), for tools that judge an item's availability.
    /// Nil for a word that is no protection class.
    public static func canRead(protectionClass pdmn: String, in state: LockState) -> Bool? {
        Accessibility(rawValue: pdmn)?.isAvailable(in: LockStateView(state))
    }
}
