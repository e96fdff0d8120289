import Foundation

/// What a build keeps where: the `keeps` field of its `build.json`.
///
/// Each secret has a label of the app's own choosing (`apiToken`) and the store this build keeps
/// it in; bookkeeping items (a schema version, a migration date, an install marker) are the app's
/// own records, which the runner leaves alone where it removes data and does not count as
/// secrets. The runner derives each case's value for every secret label from the case id
/// (``CaseSecrets``), seeds it through the old build, judges by these declarations and the device's
/// contents, and reports in these labels.
///
/// The declaration lives in `build.json`, not in an answer of the app: the runner needs it before
/// any launch (to know what to look for in every artifact), a reviewer reads it beside the
/// entitlements, it is archived and pinned with the build, and what the device holds is judged
/// against what the build says, not against what the running app claims.
///
/// ```json
/// "keeps": {
///   "secrets": [
///     {"label": "apiToken", "store": {"kind": "preference", "key": "apiToken"}},
///     {"label": "syncPassword", "store": {"kind": "keychain", "class": "inet", "server": "sync.example.com", "account": "me"}}
///   ],
///   "bookkeeping": [
///     {"label": "schemaVersion", "store": {"kind": "keychain", "service": "com.example.notes", "account": "schemaVersion"}}
///   ]
/// }
/// ```
/// In every string, `$(CASE_ID)` stands for the test case's id (a per-case keychain item).
public struct BuildDeclaration: Codable, Hashable, Sendable {
    /// The secrets this build keeps, each by its label and store.
    public var secrets: [DeclaredItem]
    /// The app's own records (schema version, migration date, install marker).
    public var bookkeeping: [DeclaredItem]

    public init(secrets: [DeclaredItem], bookkeeping: [DeclaredItem] = []) {
        self.secrets = secrets
        self.bookkeeping = bookkeeping
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        secrets = try container.decodeIfPresent([DeclaredItem].self, forKey: .secrets) ?? []
        bookkeeping = try container.decodeIfPresent([DeclaredItem].self, forKey: .bookkeeping) ?? []
    }

    /// The declaration with `$(CASE_ID)` replaced by `caseID` in every store.
    public func resolved(caseID: String) -> BuildDeclaration {
        func resolved(_ items: [DeclaredItem]) -> [DeclaredItem] {
            items.map {
                var item = $0
                item.store = $0.store.resolved(caseID: caseID)
                return item
            }
        }
        return BuildDeclaration(secrets: resolved(secrets), bookkeeping: resolved(bookkeeping))
    }

    /// The secret labels, in declaration order.
    public var secretLabels: [String] { secrets.map(\.label) }

    /// The secret declared under `label`.
    public func secret(_ label: String) -> DeclaredItem? { secrets.first { $0.label == label } }

    /// Why the declaration cannot be used, as `(field, reason)`: a label declared twice, an empty
    /// label or name, a file path that leaves its container. Nil when it is sound.
    public func problem() -> (field: String, reason: String)? {
        var seen: Set<String> = []
        for (list, items) in [("secrets", secrets), ("bookkeeping", bookkeeping)] {
            for (index, item) in items.enumerated() {
                let field = "keeps.\(list)[\(index)]"
                if item.label.isEmpty { return (field + ".label", "is empty") }
                if !seen.insert(item.label).inserted { return (field + ".label", "\"\(item.label)\" is declared twice") }
                if let reason = item.store.problem() { return (field + ".store." + reason.field, reason.reason) }
                if let reason = item.shapesProblem(secret: list == "secrets") {
                    return (field + "." + reason.field, reason.reason)
                }
                if let reason = item.holdsBytesProblem(secret: list == "secrets") {
                    return (field + "." + reason.field, reason.reason)
                }
            }
        }
        return reportedAsProblem()
    }

    /// Why a `reportedAs` pattern cannot be used, as `(field, reason)`: an empty pattern, one of
    /// `*` alone, `**`, a control character; one that takes another item's label, or the same
    /// pattern on two items (a report name would be two items' at once).
    func reportedAsProblem() -> (field: String, reason: String)? {
        var owner: [String: String] = [:]
        let items =
            secrets.enumerated().map { ("keeps.secrets[\($0.offset)]", $0.element) }
            + bookkeeping.enumerated().map { ("keeps.bookkeeping[\($0.offset)]", $0.element) }
        for (field, item) in items {
            guard let patterns = item.reportedAs else { continue }
            if patterns.isEmpty { return (field + ".reportedAs", "is empty: name at least one pattern, or leave it out") }
            for (index, pattern) in patterns.enumerated() {
                let at = field + ".reportedAs[\(index)]"
                if let reason = ReportName.problem(pattern) { return (at, "\"\(pattern)\" \(reason)") }
                if let other = owner[pattern] {
                    return (at, "\"\(pattern)\" is also given by \(other): a report name would be two items'")
                }
                owner[pattern] = field
                for (otherField, other) in items where other.label != item.label && ReportName.matches(other.label, pattern) {
                    return (at, "\"\(pattern)\" takes \(otherField)'s label \"\(other.label)\"")
                }
            }
        }
        return nil
    }

    /// The label a status report name stands for: the name itself when it is a declared label, else
    /// the label of the first item (secrets, then bookkeeping, in order) one of whose `reportedAs`
    /// patterns matches it, else the name unchanged.
    public func label(forReportName name: String) -> String {
        let items = secrets + bookkeeping
        if items.contains(where: { $0.label == name }) { return name }
        for item in items where (item.reportedAs ?? []).contains(where: { ReportName.matches(name, $0) }) {
            return item.label
        }
        return name
    }
}

/// One declared item: its label and where this build keeps it, and, for a secret, the shapes its
/// values can take when they are narrower than every shape the store holds.
///
/// A gate seeds each secret label in every ``SecretShape`` its stores can hold, across its cells. A
/// build whose secret is narrower by design (a hex token never holds a space) says so, with the
/// reason a reviewer reads:
///
/// ```json
/// {"label": "apiToken", "store": {"kind": "keychain", "service": "s", "account": "a"},
///  "shapes": ["alnum", "long"], "shapesReason": "a hex token from our server"}
/// ```
/// A shape word the contract does not know, an empty list, a shape the store cannot hold (`bytes`
/// in a preference) and a missing or blank reason are bad input, named by field.
public struct DeclaredItem: Codable, Hashable, Sendable {
    public var label: String
    public var store: DeclaredStore
    /// The shapes the secret's values can take, as build.json spells them (nil: every shape the
    /// store holds); ``shapes`` gives them as ``SecretShape``s once ``BuildDeclaration/problem()``
    /// has found every word known.
    public var shapeWords: [String]?
    /// Why the shapes are narrowed: shown in the summary beside them.
    public var shapesReason: String?
    /// Whether the build's own code writes this secret as bytes (`Data` that need not be UTF-8), not
    /// as text: `"holdsBytes": true` in build.json, only for a store of bytes (a keychain item, an
    /// app group file). Only then does the runner, writing on the build's behalf (the default seed,
    /// a malformed seed), store bytes that are not UTF-8 there; otherwise it stores text, as the
    /// build's code would (the ``SecretShape/bytes`` shape is skipped for the label, and noted).
    public var holdsBytes: Bool
    /// The names the app's own reports give this item, when they are not its label: patterns in
    /// which `*` stands for any run of characters (`"reportedAs": ["oauth:*"]` takes the report
    /// name `oauth:me@mail.example` as this label). The harness writes the label in the status file.
    public var reportedAs: [String]?

    public init(label: String, store: DeclaredStore, shapes: [SecretShape]? = nil, shapesReason: String? = nil) {
        self.label = label
        self.store = store
        self.shapeWords = shapes?.map(\.rawValue)
        self.shapesReason = shapesReason
        self.holdsBytes = false
    }

    /// An item whose build writes it as bytes (`holdsBytes: true`) or declares so explicitly.
    public init(label: String, store: DeclaredStore, shapes: [SecretShape]? = nil, shapesReason: String? = nil, holdsBytes: Bool)
    {
        self.init(label: label, store: store, shapes: shapes, shapesReason: shapesReason)
        self.holdsBytes = holdsBytes
    }

    enum CodingKeys: String, CodingKey {
        case label, store, shapeWords = "shapes", shapesReason, holdsBytes, reportedAs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
        store = try container.decode(DeclaredStore.self, forKey: .store)
        shapeWords = try container.decodeIfPresent([String].self, forKey: .shapeWords)
        shapesReason = try container.decodeIfPresent(String.self, forKey: .shapesReason)
        holdsBytes = try container.decodeIfPresent(Bool.self, forKey: .holdsBytes) ?? false
        reportedAs = try container.decodeIfPresent([String].self, forKey: .reportedAs)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(label, forKey: .label)
        try container.encode(store, forKey: .store)
        try container.encodeIfPresent(shapeWords, forKey: .shapeWords)
        try container.encodeIfPresent(shapesReason, forKey: .shapesReason)
        if holdsBytes { try container.encode(true, forKey: .holdsBytes) }
        try container.encodeIfPresent(reportedAs, forKey: .reportedAs)
    }

    /// Why `holdsBytes` cannot be used, as `(field, reason)`.
    func holdsBytesProblem(secret: Bool) -> (field: String, reason: String)? {
        guard holdsBytes else { return nil }
        guard secret else { return ("holdsBytes", "is set on a bookkeeping item: only a secret is seeded") }
        guard SecretShape.bytes.fits(store.location) else {
            return ("holdsBytes", "is true, but a \(store.location) store holds text, not bytes")
        }
        return nil
    }

    /// The shapes the build narrows this secret to (nil: not narrowed); unknown words are left out.
    public var shapes: [SecretShape]? { shapeWords.map { $0.compactMap(SecretShape.init(rawValue:)) } }

    /// Why the narrowing cannot be used, as `(field, reason)`.
    func shapesProblem(secret: Bool) -> (field: String, reason: String)? {
        guard let words = shapeWords else {
            return shapesReason == nil ? nil : ("shapesReason", "is given without \"shapes\"")
        }
        guard secret else { return ("shapes", "narrows a bookkeeping item: only a secret has shapes") }
        let known = SecretShape.allCases.map(\.rawValue).joined(separator: ", ")
        if words.isEmpty { return ("shapes", "is empty: name at least one shape (\(known))") }
        var seen: Set<String> = []
        for (index, word) in words.enumerated() {
            guard let shape = SecretShape(rawValue: word) else {
                return ("shapes[\(index)]", "\"\(word)\" is not one of \(known)")
            }
            if !seen.insert(word).inserted { return ("shapes[\(index)]", "\"\(word)\" is named twice") }
            if !shape.fits(store.location) {
                return ("shapes[\(index)]", "\"\(word)\" cannot be held by a \(store.location) store (it holds text)")
            }
        }
        guard let reason = shapesReason, !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return ("shapesReason", "is missing or empty: say why the secret's values are narrower")
        }
        return nil
    }
}

/// Where a build keeps an item. In JSON, an object with a `kind` and the fields of that kind.
public enum DeclaredStore: Hashable, Sendable {
    /// A preference key: `{"kind": "preference", "key": "apiToken"}`, in the app's own domain or,
    /// with `suite`, an app group's (`UserDefaults(suiteName:)`).
    case preference(key: String, suite: String?)
    /// A key path in a property-list file in the data container:
    /// `{"kind": "plist", "file": "Library/Preferences/settings.plist", "keyPath": "sync.password"}`.
    case propertyList(file: String, keyPath: String)
    /// An NSKeyedArchiver archive file in the data container, and the key path of the value in its
    /// root object: `{"kind": "archive", "file": "Library/Application Support/Session.archive", "keyPath": "token"}`.
    case archive(file: String, keyPath: String?)
    /// A keychain item by class and primary key:
    /// `{"kind": "keychain", "class": "genp", "service": "...", "account": "...", "accessGroup": "...", "accessible": "ck"}`.
    case keychain(KeychainItemDeclaration)
    /// A file in an app group container: `{"kind": "appGroupFile", "group": "group.x", "file": "token"}`.
    case appGroupFile(group: String, file: String)
    /// A key path in a property-list file inside an app group container: the `plist` kind with a
    /// `group`, `{"kind": "plist", "group": "group.x", "file": "shared.plist", "keyPath": "sync.password"}`.
    case groupPropertyList(group: String, file: String, keyPath: String)
    /// A dotted key path in a JSON file (an app's Codable file), in the data container or, with
    /// `group`, an app group container:
    /// `{"kind": "json", "file": "Library/Application Support/session.json", "keyPath": "auth.token"}`.
    /// JSON holds text only: a secret in it is a JSON string.
    case json(file: String, keyPath: String, group: String?)

    /// The kinds, as `kind` spells them.
    public static let kinds = ["preference", "plist", "json", "archive", "keychain", "appGroupFile"]

    /// The app group whose container holds the store (nil: the app's own container or keychain).
    public var group: String? {
        switch self {
        case .appGroupFile(let group, _), .groupPropertyList(let group, _, _): group
        case .json(_, _, let group): group
        case .preference, .propertyList, .archive, .keychain: nil
        }
    }

    /// The contract's word for where the item lives (a status item's `location`).
    public var location: StoreLocation {
        switch self {
        case .preference: .preferences
        case .propertyList: .plist
        case .archive: .archive
        case .keychain: .keychain
        case .appGroupFile: .file
        case .groupPropertyList: .plist
        case .json: .json
        }
    }

    /// The store with `$(CASE_ID)` replaced by `caseID`.
    public func resolved(caseID: String) -> DeclaredStore {
        func r(_ text: String) -> String { Self.replacingCaseID(in: text, with: caseID) }
        switch self {
        case .preference(let key, let suite): return .preference(key: r(key), suite: suite.map(r))
        case .propertyList(let file, let keyPath): return .propertyList(file: r(file), keyPath: r(keyPath))
        case .archive(let file, let keyPath): return .archive(file: r(file), keyPath: keyPath.map(r))
        case .keychain(var item):
            item.service = item.service.map(r)
            item.server = item.server.map(r)
            item.account = r(item.account)
            return .keychain(item)
        case .appGroupFile(let group, let file): return .appGroupFile(group: group, file: r(file))
        case .groupPropertyList(let group, let file, let keyPath):
            return .groupPropertyList(group: group, file: r(file), keyPath: r(keyPath))
        case .json(let file, let keyPath, let group): return .json(file: r(file), keyPath: r(keyPath), group: group)
        }
    }

    /// `text.replacingOccurrences(of: "$(CASE_ID)", with: caseID)`, without Foundation where the
    /// answer is plain: text without a `$` is left as it is, ASCII text has the placeholder's bytes
    /// replaced. Anything else goes to Foundation, whose search matches canonically equivalent
    /// characters. Every app launch resolves its declaration, and Foundation's first
    /// `replacingOccurrences` (bridging to `NSMutableString`) cost a launch 2% of its CPU
    /// (docs/benchmarks.md); `InstalledDeclarationTests` compares the two.
    static func replacingCaseID(in text: String, with caseID: String) -> String {
        var text = text
        let plain: String?? = text.withUTF8 { bytes -> String?? in
            var dollar = false
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                if byte == UInt8(ascii: "$") { dollar = true }
            }
            guard dollar else { return .some(nil) }
            let placeholder: StaticString = "$(CASE_ID)"
            let length = placeholder.utf8CodeUnitCount
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "$"), bytes.count - index >= length,
                    memcmp(bytes.baseAddress! + index, placeholder.utf8Start, length) == 0
                {
                    var id = caseID
                    id.withUTF8 { result.append(contentsOf: $0) }
                    index += length
                } else {
                    result.append(bytes[index])
                    index += 1
                }
            }
            return .some(String(decoding: result, as: UTF8.self))
        }
        switch plain {
        case .some(.some(let replaced)): return replaced
        case .some(.none): return text
        case .none: return text.replacingOccurrences(of: "$(CASE_ID)", with: caseID)
        }
    }

    func problem() -> (field: String, reason: String)? {
        func badPath(_ path: String) -> Bool {
            path.isEmpty || path.hasPrefix("/") || path.split(separator: "/").contains("..")
        }
        switch self {
        case .preference(let key, _): return key.isEmpty ? ("key", "is empty") : nil
        case .propertyList(let file, let keyPath):
            if badPath(file) { return ("file", "must be a path inside the data container") }
            return keyPath.isEmpty ? ("keyPath", "is empty") : nil
        case .archive(let file, _):
            return badPath(file) ? ("file", "must be a path inside the data container") : nil
        case .keychain(let item): return item.problem()
        case .appGroupFile(let group, let file):
            if group.isEmpty { return ("group", "is empty") }
            return badPath(file) ? ("file", "must be a path inside the group container") : nil
        case .groupPropertyList(let group, let file, let keyPath):
            if group.isEmpty { return ("group", "is empty") }
            if badPath(file) { return ("file", "must be a path inside the group container") }
            return Self.keyPathProblem(keyPath)
        case .json(let file, let keyPath, let group):
            if group?.isEmpty == true { return ("group", "is empty") }
            if badPath(file) { return ("file", "must be a path inside the \(group == nil ? "data" : "group") container") }
            return Self.keyPathProblem(keyPath)
        }
    }

    /// A dotted key path needs at least one key and no empty one (`a..b`, `.a`).
    static func keyPathProblem(_ keyPath: String) -> (field: String, reason: String)? {
        if keyPath.isEmpty { return ("keyPath", "is empty") }
        if keyPath.split(separator: ".", omittingEmptySubsequences: false).contains("") {
            return ("keyPath", "\"\(keyPath)\" has an empty key: keys are separated by single dots")
        }
        return nil
    }
}

/// A keychain item as a build declares it: its class and primary key, and the accessibility it
/// gives the item.
public struct KeychainItemDeclaration: Codable, Hashable, Sendable {
    /// `genp` (generic password, the default), `inet` (internet password), `keys` or `cert`.
    public var itemClass: String
    /// `kSecAttrService` (generic passwords).
    public var service: String?
    /// `kSecAttrServer` (internet passwords).
    public var server: String?
    /// `kSecAttrAccount`; absent in build.json: the empty account, as the keychain stores an item
    /// added without one (every primary-key attribute may be absent, and then matches only absent).
    public var account: String
    /// Internet passwords' other primary-key attributes, as build.json spells them: `port` (443),
    /// `protocol` (the four-character code `kSecAttrProtocol` stores: `htps`, `imap`, `smtp`),
    /// `path`, `authenticationType` (`dflt`, `http`, `form`, ...) and `securityDomain`. Nil: not part
    /// of the item's key (the keychain's default).
    public var port: Int?
    public var `protocol`: String?
    public var path: String?
    public var authenticationType: String?
    public var securityDomain: String?
    /// `kSecAttrAccessGroup`; nil for the app's default (first) group.
    public var accessGroup: String?
    /// `kSecAttrAccessible` as the keychain stores it (`ak`, `ck`, `cku`, ...); nil for the default.
    public var accessible: String?
    /// `kSecAttrSynchronizable`.
    public var synchronizable: Bool

    public init(
        itemClass: String = "genp", service: String? = nil, server: String? = nil, account: String = "",
        accessGroup: String? = nil, accessible: String? = nil, synchronizable: Bool = false, port: Int? = nil,
        protocol: String? = nil, path: String? = nil, authenticationType: String? = nil, securityDomain: String? = nil
    ) {
        self.port = port
        self.protocol = `protocol`
        self.path = path
        self.authenticationType = authenticationType
        self.securityDomain = securityDomain
        self.itemClass = itemClass
        self.service = service
        self.server = server
        self.account = account
        self.accessGroup = accessGroup
        self.accessible = accessible
        self.synchronizable = synchronizable
    }

    enum CodingKeys: String, CodingKey {
        case itemClass = "class", service, server, account, accessGroup, accessible, synchronizable
        case port, `protocol`, path, authenticationType, securityDomain
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        itemClass = try container.decodeIfPresent(String.self, forKey: .itemClass) ?? "genp"
        service = try container.decodeIfPresent(String.self, forKey: .service)
        server = try container.decodeIfPresent(String.self, forKey: .server)
        account = try container.decodeIfPresent(String.self, forKey: .account) ?? ""
        port = try container.decodeIfPresent(Int.self, forKey: .port)
        `protocol` = try container.decodeIfPresent(String.self, forKey: .protocol)
        path = try container.decodeIfPresent(String.self, forKey: .path)
        authenticationType = try container.decodeIfPresent(String.self, forKey: .authenticationType)
        securityDomain = try container.decodeIfPresent(String.self, forKey: .securityDomain)
        accessGroup = try container.decodeIfPresent(String.self, forKey: .accessGroup)
        accessible = try container.decodeIfPresent(String.self, forKey: .accessible)
        synchronizable = try container.decodeIfPresent(Bool.self, forKey: .synchronizable) ?? false
    }

    /// The internet-password key attributes this declaration names, in build.json's spelling.
    var internetKeyAttributes: [String] {
        var names: [String] = []
        if port != nil { names.append("port") }
        if `protocol` != nil { names.append("protocol") }
        if path != nil { names.append("path") }
        if authenticationType != nil { names.append("authenticationType") }
        if securityDomain != nil { names.append("securityDomain") }
        return names
    }

    static func isFourCharacterCode(_ code: String) -> Bool { !code.isEmpty && code.utf8.count <= 4 }

    /// The classes a declaration may name, as the keychain's tables are called.
    public static let classes = ["genp", "inet", "keys", "cert"]
    /// The protection classes, as the keychain stores `kSecAttrAccessible`.
    public static let protectionClasses = ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"]

    func problem() -> (field: String, reason: String)? {
        if !Self.classes.contains(itemClass) {
            return ("class", "\"\(itemClass)\" is not a keychain class (\(Self.classes.joined(separator: ", ")))")
        }
        if itemClass != "inet", let name = internetKeyAttributes.first {
            return (name, "belongs to an internet password (class inet), not \(itemClass)")
        }
        if let port, port < 0 || port > 65535 { return ("port", "\(port) is not a port (0-65535)") }
        if let code = `protocol`, !Self.isFourCharacterCode(code) {
            return ("protocol", "\"\(code)\" is not a four-character code (such as htps, dflt)")
        }
        if let code = authenticationType, !Self.isFourCharacterCode(code) {
            return ("authenticationType", "\"\(code)\" is not a four-character code (such as htps, dflt)")
        }
        if let accessible, !Self.protectionClasses.contains(accessible) {
            return (
                "accessible",
                "\"\(accessible)\" is not a protection class (\(Self.protectionClasses.joined(separator: ", ")))"
            )
        }
        return nil
    }
}

extension DeclaredStore: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, key, suite, file, keyPath, group
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "preference":
            self = .preference(
                key: try container.decode(String.self, forKey: .key),
                suite: try container.decodeIfPresent(String.self, forKey: .suite))
        case "plist":
            let file = try container.decode(String.self, forKey: .file)
            let keyPath = try container.decode(String.self, forKey: .keyPath)
            if let group = try container.decodeIfPresent(String.self, forKey: .group) {
                self = .groupPropertyList(group: group, file: file, keyPath: keyPath)
            } else {
                self = .propertyList(file: file, keyPath: keyPath)
            }
        case "json":
            self = .json(
                file: try container.decode(String.self, forKey: .file),
                keyPath: try container.decode(String.self, forKey: .keyPath),
                group: try container.decodeIfPresent(String.self, forKey: .group))
        case "archive":
            self = .archive(
                file: try container.decode(String.self, forKey: .file),
                keyPath: try container.decodeIfPresent(String.self, forKey: .keyPath))
        case "keychain": self = .keychain(try KeychainItemDeclaration(from: decoder))
        case "appGroupFile":
            self = .appGroupFile(
                group: try container.decode(String.self, forKey: .group),
                file: try container.decode(String.self, forKey: .file))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "\"\(kind)\" is not a store kind (\(Self.kinds.joined(separator: ", ")))")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .preference(let key, let suite):
            try container.encode("preference", forKey: .kind)
            try container.encode(key, forKey: .key)
            try container.encodeIfPresent(suite, forKey: .suite)
        case .propertyList(let file, let keyPath):
            try container.encode("plist", forKey: .kind)
            try container.encode(file, forKey: .file)
            try container.encode(keyPath, forKey: .keyPath)
        case .archive(let file, let keyPath):
            try container.encode("archive", forKey: .kind)
            try container.encode(file, forKey: .file)
            try container.encodeIfPresent(keyPath, forKey: .keyPath)
        case .keychain(let item):
            try container.encode("keychain", forKey: .kind)
            try item.encode(to: encoder)
        case .appGroupFile(let group, let file):
            try container.encode("appGroupFile", forKey: .kind)
            try container.encode(group, forKey: .group)
            try container.encode(file, forKey: .file)
        case .groupPropertyList(let group, let file, let keyPath):
            try container.encode("plist", forKey: .kind)
            try container.encode(group, forKey: .group)
            try container.encode(file, forKey: .file)
            try container.encode(keyPath, forKey: .keyPath)
        case .json(let file, let keyPath, let group):
            try container.encode("json", forKey: .kind)
            try container.encode(file, forKey: .file)
            try container.encode(keyPath, forKey: .keyPath)
            try container.encodeIfPresent(group, forKey: .group)
        }
    }
}

/// A `reportedAs` pattern: literal text in which each `*` stands for any run of characters.
public enum ReportName {
    /// Whether `name` matches `pattern`.
    public static func matches(_ name: String, _ pattern: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return name == pattern }
        var rest = Substring(name)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }

    /// Why `pattern` is not a pattern, or nil.
    static func problem(_ pattern: String) -> String? {
        if pattern.isEmpty { return "is empty" }
        if pattern.count > 255 { return "is longer than 255 characters" }
        if pattern.allSatisfy({ $0 == "*" }) { return "matches every name: give the fixed part (such as \"oauth:*\")" }
        if pattern.contains("**") { return "has \"**\": one * stands for any run of characters" }
        if pattern.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "holds a control character"
        }
        return nil
    }
}
