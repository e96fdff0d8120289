import Foundation
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// The automation modes of an ordinary build, from its declaration alone: seed writes each declared
/// secret's value for the case into its store, verify reads each back and compares it, cleanup
/// removes each exactly. A build whose stores are the common ones (preferences, property lists,
/// JSON files, NSKeyedArchiver archives of dictionaries, generic and internet passwords, app-group
/// files and property lists)
/// writes no automation code but its own launch; see ``AppBuild``'s default hooks.
///
/// Values are read only to compare them; what is reported are words and statuses.
public struct DeclaredStores: Sendable {
    public let launch: HarnessLaunch
    public let declaration: BuildDeclaration

    /// The stores `declaration` names (default: the launch's build's own), for `launch`'s case.
    public init(_ launch: HarnessLaunch, declaration: BuildDeclaration? = nil) {
        self.launch = launch
        self.declaration = declaration ?? launch.declaration ?? BuildDeclaration(secrets: [])
    }

    private var environment: AppEnvironment { launch.environment }

    /// Writes every declared secret's value for the case; `malformed` writes, in each store's own
    /// format, what it cannot read back as the value instead (a number for a preference, a
    /// truncated JSON document, garbage for an archive).
    public func seed(malformed: Bool = false) {
        seed(malformed: malformed ? Set(declaration.secretLabels) : [])
    }

    /// Writes every declared secret's value for the case, the secrets `labels` malformed.
    ///
    /// The runner writes on the build's behalf only what the build's own code could have written:
    /// a secret is stored as text (UTF-8) unless it is declared ``DeclaredItem/holdsBytes``, so a
    /// value of the ``SecretShape/bytes`` shape is seeded as the label's text value and noted.
    public func seed(malformed labels: Set<String>) {
        for item in declaration.secrets {
            let (operation, status) = write(item, malformed: labels.contains(item.label))
            launch.record(item.label, item.store.location, operation, status, status == 0 ? .written : .failed)
        }
    }

    /// Reads every declared secret and compares it with the case's value.
    public func verify() {
        for item in declaration.secrets {
            let (operation, status, value) = read(item.store)
            let expected = launch.secrets.expected(item.label, matching: value)
            let result = ItemResult.ofRead(status: status, value: value, expected: expected, at: item.store.location)
            launch.record(item.label, item.store.location, operation, status, result)
        }
    }

    /// Removes every declared secret exactly (a keychain item by class and primary key, a
    /// preference key, a file), never by a broader query.
    public func cleanup() {
        for item in declaration.secrets {
            let (operation, status) = remove(item.store)
            let result: ItemResult =
                switch status {
                case 0: .removed
                case errSecItemNotFound, ENOENT: .missing
                default: .failed
                }
            launch.record(item.label, item.store.location, operation, status, result)
        }
    }

    // MARK: The stores

    /// Writes the case's value of `item` to its store: as bytes where the store holds bytes and the
    /// build declares it writes bytes there, else as text (a `String`, or its UTF-8 bytes).
    private func write(_ item: DeclaredItem, malformed: Bool) -> (String, Int32) {
        let store = item.store
        let label = item.label
        let holdsBytes = item.holdsBytes && SecretShape.bytes.fits(store.location)
        // Only a store of text, or a secret the build writes as text, asks for the value as text
        // (a non-UTF-8 shape is noted when it does).
        let value = holdsBytes ? "" : launch.secrets[label]
        let bytes = holdsBytes ? launch.secrets.data(label) : Data(value.utf8)
        // Malformed in the store's own terms: bytes that are not UTF-8 only where the build writes
        // bytes; else a torn write of the text (its first half), which no read takes for the value.
        let malformedBytes = holdsBytes ? Data([0xC3, 0x28, 0xFF, 0xFE]) : Data(value.utf8.prefix(max(1, value.utf8.count / 2)))
        switch store {
        case .preference(let key, let suite):
            guard let defaults = defaults(suite) else { return ("UserDefaults(suiteName:)", ENOENT) }
            let stored = defaults.set(malformed ? NSNumber(value: 4_815_162_342) : value, forKey: key)
            return ("set", stored ? 0 : EPERM)
        case .propertyList(let file, let keyPath):
            return writePropertyList(
                malformed ? Data([0xC3, 0x28, 0xFF, 0xFE]) : value, at: keyPath, to: environment.home.appendingPathComponent(file)
            )
        case .groupPropertyList(let group, let file, let keyPath):
            guard let container = environment.groupContainers[group] else { return ("containerURL", ENOENT) }
            return writePropertyList(
                malformed ? Data([0xC3, 0x28, 0xFF, 0xFE]) : value, at: keyPath, to: container.appendingPathComponent(file))
        case .json(let file, let keyPath, let group):
            guard let url = url(file, group: group) else { return ("containerURL", ENOENT) }
            return writeJSON(value, at: keyPath, to: url, malformed: malformed)
        case .archive(let file, let keyPath):
            let url = environment.home.appendingPathComponent(file)
            guard !malformed else { return ("write", writeFile(Data("bplist00 not an archive".utf8), to: url)) }
            var root: [String: Any] = [:]
            if let keyPath { Self.set(value, at: keyPath, in: &root) }
            let object: Any = keyPath == nil ? value as NSString : root as NSDictionary
            guard let data = try? NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true) else {
                return ("NSKeyedArchiver", errSecDecode)
            }
            return ("write", writeFile(data, to: url))
        case .keychain(let key):
            let data = malformed ? malformedBytes : bytes
            var item = Self.query(key)
            item[kSecValueData] = data
            if let accessible = key.accessible { item[kSecAttrAccessible] = Self.accessibility(accessible) }
            let added = SecItemAdd(item as CFDictionary, nil)
            guard added == errSecDuplicateItem else { return ("SecItemAdd", added) }
            var changes: [CFString: Any] = [kSecValueData: data]
            if let accessible = key.accessible { changes[kSecAttrAccessible] = Self.accessibility(accessible) }
            return ("SecItemUpdate", SecItemUpdate(Self.query(key) as CFDictionary, changes as CFDictionary))
        case .appGroupFile(let group, let file):
            guard let container = environment.groupContainers[group] else { return ("containerURL", ENOENT) }
            return ("write", writeFile(malformed ? malformedBytes : bytes, to: container.appendingPathComponent(file)))
        }
    }

    /// The file `file` in the data container, or in `group`'s container (nil: the app has no such group).
    private func url(_ file: String, group: String?) -> URL? {
        guard let group else { return environment.home.appendingPathComponent(file) }
        return environment.groupContainers[group]?.appendingPathComponent(file)
    }

    /// Sets `value` at `keyPath` in the property list at `url` (its other keys kept) and writes it back.
    private func writePropertyList(_ value: Any, at keyPath: String, to url: URL) -> (String, Int32) {
        var root = (try? environment.files.read(url)).flatMap(Self.dictionary) ?? [:]
        Self.set(value, at: keyPath, in: &root)
        guard let data = try? PropertyListSerialization.data(fromPropertyList: root, format: .xml, options: 0) else {
            return ("PropertyListSerialization", errSecDecode)
        }
        return ("write", writeFile(data, to: url))
    }

    /// Sets `value` at `keyPath` in the JSON object at `url` (its other keys kept) and writes it back
    /// with sorted keys. Malformed, the document is cut just inside the value's opening quote: JSON
    /// no decoder reads (a torn write), still JSON's envelope, never another format.
    private func writeJSON(_ value: String, at keyPath: String, to url: URL, malformed: Bool) -> (String, Int32) {
        var root = (try? environment.files.read(url)).flatMap(Self.jsonDictionary) ?? [:]
        let cut = "upgrade-runner-cut-9e3779b9"
        Self.set(malformed ? cut : value, at: keyPath, in: &root)
        guard var data = try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]) else {
            return ("JSONSerialization", errSecDecode)
        }
        if malformed {
            guard let range = data.range(of: Data(("\"" + cut + "\"").utf8)) else { return ("JSONSerialization", errSecDecode) }
            data = data.subdata(in: data.startIndex..<(range.lowerBound + 1))
        }
        return ("write", writeFile(data, to: url))
    }

    /// What `store` holds: text stores' strings as UTF-8, byte stores' bytes as they are.
    private func read(_ store: DeclaredStore) -> (String, Int32, Data?) {
        let (operation, status, value) = readValue(store)
        switch value {
        case let text as String: return (operation, status, Data(text.utf8))
        case let data as Data: return (operation, status, data)
        default: return (operation, status, nil)
        }
    }

    private func readValue(_ store: DeclaredStore) -> (String, Int32, Any?) {
        switch store {
        case .preference(let key, let suite):
            guard let defaults = defaults(suite) else { return ("UserDefaults(suiteName:)", ENOENT, nil) }
            return ("string(forKey:)", 0, defaults.object(forKey: key) as? String)
        case .propertyList(let file, let keyPath):
            return readPropertyList(at: keyPath, in: environment.home.appendingPathComponent(file))
        case .groupPropertyList(let group, let file, let keyPath):
            guard let container = environment.groupContainers[group] else { return ("containerURL", ENOENT, nil) }
            return readPropertyList(at: keyPath, in: container.appendingPathComponent(file))
        case .json(let file, let keyPath, let group):
            guard let url = url(file, group: group) else { return ("containerURL", ENOENT, nil) }
            let (status, data) = readFile(url)
            guard let data else { return ("read", status, nil) }
            guard let root = Self.jsonDictionary(data) else { return ("JSONSerialization", errSecDecode, nil) }
            return ("read", 0, Self.value(at: keyPath, in: root) as? String)
        case .archive(let file, let keyPath):
            let (status, data) = readFile(environment.home.appendingPathComponent(file))
            guard let data else { return ("read", status, nil) }
            let classes: [AnyClass] = [NSDictionary.self, NSString.self, NSArray.self, NSNumber.self]
            guard let object = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data) else {
                return ("NSKeyedUnarchiver", errSecDecode, nil)
            }
            guard let keyPath else { return ("NSKeyedUnarchiver", 0, object as? String) }
            let value = (object as? [String: Any]).flatMap { Self.value(at: keyPath, in: $0) }
            return ("NSKeyedUnarchiver", 0, value as? String)
        case .keychain(let key):
            var query = Self.query(key)
            query[kSecReturnData] = true
            query[kSecMatchLimit] = kSecMatchLimitOne
            var found: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &found)
            return ("SecItemCopyMatching", status, status == errSecSuccess ? found as? Data : nil)
        case .appGroupFile(let group, let file):
            guard let container = environment.groupContainers[group] else { return ("containerURL", ENOENT, nil) }
            let (status, data) = readFile(container.appendingPathComponent(file))
            return ("read", status, data)
        }
    }

    private func readPropertyList(at keyPath: String, in url: URL) -> (String, Int32, Any?) {
        let (status, data) = readFile(url)
        guard let data else { return ("read", status, nil) }
        guard let root = Self.dictionary(data) else { return ("PropertyListSerialization", errSecDecode, nil) }
        return ("read", 0, Self.value(at: keyPath, in: root) as? String)
    }

    private func remove(_ store: DeclaredStore) -> (String, Int32) {
        switch store {
        case .preference(let key, let suite):
            guard let defaults = defaults(suite) else { return ("UserDefaults(suiteName:)", ENOENT) }
            guard defaults.persistentDomain()[key] != nil else { return ("removeObject", ENOENT) }
            return ("removeObject", defaults.removeObject(forKey: key) ? 0 : EPERM)
        case .propertyList(let file, _), .archive(let file, _):
            return ("remove", removeFile(environment.home.appendingPathComponent(file)))
        case .groupPropertyList(let group, let file, _), .json(let file, _, .some(let group)):
            guard let container = environment.groupContainers[group] else { return ("containerURL", ENOENT) }
            return ("remove", removeFile(container.appendingPathComponent(file)))
        case .json(let file, _, .none):
            return ("remove", removeFile(environment.home.appendingPathComponent(file)))
        case .keychain(let key):
            return ("SecItemDelete", SecItemDelete(Self.query(key) as CFDictionary))
        case .appGroupFile(let group, let file):
            guard let container = environment.groupContainers[group] else { return ("containerURL", ENOENT) }
            return ("remove", removeFile(container.appendingPathComponent(file)))
        }
    }

    private func defaults(_ suite: String?) -> (any AppDefaults)? {
        guard let suite else { return environment.defaults }
        return environment.suiteDefaults(suite)
    }

    private func writeFile(_ data: Data, to url: URL) -> Int32 {
        do { try environment.files.write(data, to: url) } catch { return error.code }
        return 0
    }

    private func readFile(_ url: URL) -> (Int32, Data?) {
        do { return (0, try environment.files.read(url)) } catch { return (error.code, nil) }
    }

    private func removeFile(_ url: URL) -> Int32 {
        guard environment.files.fileExists(url) else { return ENOENT }
        do { try environment.files.remove(url) } catch { return error.code }
        return 0
    }

    // MARK: Keychain queries and key paths

    /// The item's class and primary key, as a query: exactly this item, never a broader match.
    static func query(_ key: KeychainItemDeclaration) -> [CFString: Any] {
        var query: [CFString: Any] = [kSecAttrAccount: key.account]
        switch key.itemClass {
        case "inet":
            query[kSecClass] = kSecClassInternetPassword
            query[kSecAttrServer] = key.server ?? ""
            // The rest of an internet password's key, where the declaration names it (the
            // four-character codes are what the keychain stores for kSecAttrProtocol... constants).
            if let port = key.port { query[kSecAttrPort] = port }
            if let code = key.protocol { query[kSecAttrProtocol] = code }
            if let path = key.path { query[kSecAttrPath] = path }
            if let code = key.authenticationType { query[kSecAttrAuthenticationType] = code }
            if let domain = key.securityDomain { query[kSecAttrSecurityDomain] = domain }
        default:
            query[kSecClass] = kSecClassGenericPassword
            query[kSecAttrService] = key.service ?? ""
        }
        if let group = key.accessGroup { query[kSecAttrAccessGroup] = group }
        if key.synchronizable { query[kSecAttrSynchronizable] = true }
        return query
    }

    /// The `kSecAttrAccessible` value for a protection class as the keychain stores it (`cku`).
    static func accessibility(_ code: String) -> CFString {
        switch code {
        case "ak": kSecAttrAccessibleWhenUnlocked
        case "ck": kSecAttrAccessibleAfterFirstUnlock
        case "aku": kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case "cku": kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case "akpu": kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly
        case "dk": kSecAttrAccessibleAlways
        default: kSecAttrAccessibleAlwaysThisDeviceOnly
        }
    }

    static func dictionary(_ data: Data) -> [String: Any]? {
        (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    static func jsonDictionary(_ data: Data) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    /// The value at a dotted key path (`sync.password`).
    static func value(at keyPath: String, in root: [String: Any]) -> Any? {
        var current: Any? = root
        for key in keyPath.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
        return current
    }

    /// Sets the value at a dotted key path, creating the dictionaries on the way.
    static func set(_ value: Any, at keyPath: String, in root: inout [String: Any]) {
        let keys = keyPath.split(separator: ".").map(String.init)
        guard let first = keys.first else { return }
        if keys.count == 1 {
            root[first] = value
            return
        }
        var child = root[first] as? [String: Any] ?? [:]
        set(value, at: keys.dropFirst().joined(separator: "."), in: &child)
        root[first] = child
    }
}

extension AppBuild {
    /// Seeds the declared secrets (``DeclaredStores/seed(malformed:)``): a build whose stores its
    /// declaration describes needs no seed code of its own.
    public func seed(_ launch: HarnessLaunch) async { DeclaredStores(launch).seed() }
    /// Seeds the declared secrets malformed (only those `-UITestSeedMalformedStore` names, when it names any).
    public func seedMalformed(_ launch: HarnessLaunch) async {
        let stores = DeclaredStores(launch)
        stores.seed(malformed: Set(stores.declaration.secretLabels.filter(launch.malforms)))
    }
    /// Reads the secrets back as the app reads them: its startup read when it registers one (each
    /// read recorded against the case's value), else the declared stores (``DeclaredStores/verify()``).
    public func verify(_ launch: HarnessLaunch) async {
        guard let reads = await startupRead(launch) else { return DeclaredStores(launch).verify() }
        let secrets = launch.secrets
        for read in reads {
            launch.record(
                read.label, read.location, read.operation, read.status,
                read.result(expected: secrets.expected(read.label, matching: read.value)))
        }
        launch.reportStartup(reads)
    }
    /// Removes the declared secrets exactly (``DeclaredStores/cleanup()``).
    public func cleanup(_ launch: HarnessLaunch) async { DeclaredStores(launch).cleanup() }
}
