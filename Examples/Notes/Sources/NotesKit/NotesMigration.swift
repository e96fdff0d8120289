import Foundation

#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif
#if canImport(UIKit)
    /// The app's defaults: `UserDefaults` on iOS.
    public typealias NotesDefaults = UserDefaults
#else
    import AppHarness
    /// The app's defaults: the simulated device's, with UserDefaults' methods.
    public typealias NotesDefaults = SimUserDefaults
#endif

/// Notes 2.0's migration: the API token moves from UserDefaults, and the sharing key from the
/// settings property list, into the keychain (write, read back, only then remove the plaintext);
/// the sync password stays in its internet-password item. A reinstall sweep runs first, and
/// nothing runs until protected data is available.
public struct NotesMigration {
    /// What the migration did to one item (the app logs it; the automation reports it).
    public struct Step: Equatable, Sendable {
        public enum Outcome: String, Sendable { case moved, kept, failed, removed }
        public var label: String
        public var store: String
        public var operation: String
        public var status: Int32
        public var outcome: Outcome
    }

    public enum State: String, Sendable { case migrated, upToDate, deferred, failed }

    public static let service = "com.example.notes"
    public static let schemaAccount = "schemaVersion"
    public static let installedKey = "notes.installed"
    public static let settingsPath = "Library/Application Support/settings.plist"
    public static let targetSchema = 1

    public let defaults: NotesDefaults
    public let settingsURL: URL
    public let readFile: (URL) throws -> Data
    public let writeFile: (Data, URL) throws -> Void
    public let fileExists: (URL) -> Bool
    /// The known-bad variant: the preference is removed before its keychain write.
    public var removeBeforeWrite = false

    public init(
        defaults: NotesDefaults, settingsURL: URL, readFile: @escaping (URL) throws -> Data,
        writeFile: @escaping (Data, URL) throws -> Void, fileExists: @escaping (URL) -> Bool
    ) {
        self.defaults = defaults
        self.settingsURL = settingsURL
        self.readFile = readFile
        self.writeFile = writeFile
        self.fileExists = fileExists
    }

    /// Runs the launch sequence: `protectedDataAvailable` is `UIApplication.isProtectedDataAvailable`
    /// after waiting for its notification.
    public func run(protectedDataAvailable: Bool) -> (state: State, steps: [Step]) {
        guard protectedDataAvailable else { return (.deferred, []) }
        var steps: [Step] = []
        sweepIfFreshInstall(&steps)
        if storedSchema() == Self.targetSchema { return (.upToDate, steps) }
        var ok = moveToken(&steps)
        ok = moveSharingKey(&steps) && ok
        guard ok else { return (.failed, steps) }
        let status = save(Data(String(Self.targetSchema).utf8), account: Self.schemaAccount)
        return (status == errSecSuccess ? .migrated : .failed, steps)
    }

    /// A fresh install over an old keychain (the app was deleted and installed again): no marker and
    /// nothing of an earlier release in the container. An upgrade from 1.0 has its preferences.
    private func sweepIfFreshInstall(_ steps: inout [Step]) {
        guard !defaults.bool(forKey: Self.installedKey) else { return }
        let upgrade = defaults.object(forKey: "apiToken") != nil || fileExists(settingsURL)
        if !upgrade {
            // Every class, synchronizable or not: a reinstall must not bring back any of the old
            // install's items (the gate's reinstall seeds one of each in the app's groups).
            // (an identity is a certificate and its key, so those two classes remove it).
            let classes = [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey]
            for itemClass in classes {
                let query: [CFString: Any] = [kSecClass: itemClass, kSecAttrSynchronizable: kSecAttrSynchronizableAny]
                let status = SecItemDelete(query as CFDictionary)
                if status != errSecSuccess && status != errSecItemNotFound {
                    steps.append(
                        Step(label: "sweep", store: "keychain", operation: "SecItemDelete", status: status, outcome: .failed))
                    return
                }
            }
        }
        defaults.set(true, forKey: Self.installedKey)
    }

    private func moveToken(_ steps: inout [Step]) -> Bool {
        guard let stored = defaults.object(forKey: "apiToken") else { return true }
        guard let token = stored as? String, let data = token.data(using: .utf8) else {
            steps.append(Step(label: "apiToken", store: "preferences", operation: "decode", status: errSecDecode, outcome: .kept))
            return false
        }
        if removeBeforeWrite { defaults.removeObject(forKey: "apiToken") }
        if let failure = saveAndReadBack(data, label: "apiToken") {
            steps.append(failure)
            return false
        }
        defaults.removeObject(forKey: "apiToken")
        steps.append(Step(label: "apiToken", store: "keychain", operation: "SecItemAdd", status: 0, outcome: .moved))
        return true
    }

    private func moveSharingKey(_ steps: inout [Step]) -> Bool {
        guard fileExists(settingsURL) else { return true }
        guard let data = try? readFile(settingsURL),
            var settings = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
        else {
            steps.append(Step(label: "shareKey", store: "plist", operation: "read", status: errSecDecode, outcome: .kept))
            return false
        }
        var sharing = settings["sharing"] as? [String: Any] ?? [:]
        guard let stored = sharing["key"] else { return true }
        guard let key = stored as? String, let keyData = key.data(using: .utf8) else {
            steps.append(Step(label: "shareKey", store: "plist", operation: "decode", status: errSecDecode, outcome: .kept))
            return false
        }
        if let failure = saveAndReadBack(keyData, label: "shareKey") {
            steps.append(failure)
            return false
        }
        sharing["key"] = nil
        settings["sharing"] = sharing
        do {
            let rewritten = try PropertyListSerialization.data(fromPropertyList: settings, format: .xml, options: 0)
            try writeFile(rewritten, settingsURL)
        } catch {
            steps.append(Step(label: "shareKey", store: "plist", operation: "write", status: errSecIO, outcome: .kept))
            return false
        }
        steps.append(Step(label: "shareKey", store: "keychain", operation: "SecItemAdd", status: 0, outcome: .moved))
        return true
    }

    private func storedSchema() -> Int? {
        load(account: Self.schemaAccount).1.flatMap { Int(String(decoding: $0, as: UTF8.self)) }
    }

    /// Adds the item, or updates it when it exists; searches by primary key only.
    private func save(_ data: Data, account: String) -> OSStatus {
        let key: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: Self.service, kSecAttrAccount: account]
        var item = key
        item[kSecValueData] = data
        item[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecDuplicateItem else { return added }
        return SecItemUpdate(key as CFDictionary, [kSecValueData: data] as CFDictionary)
    }

    /// Saves `data` as the item `label` and reads it back; nil when the keychain holds it, else the
    /// failed step, named by the operation that decided it: the save's error, or the read-back's
    /// (a save that answered success but stored nothing reads back errSecItemNotFound).
    private func saveAndReadBack(_ data: Data, label: String) -> Step? {
        let saved = save(data, account: label)
        guard saved == errSecSuccess else {
            return Step(label: label, store: "keychain", operation: "SecItemAdd", status: saved, outcome: .failed)
        }
        let (status, stored) = load(account: label)
        if status == errSecSuccess && stored == data { return nil }
        return Step(
            label: label, store: "keychain", operation: "SecItemCopyMatching",
            status: status == errSecSuccess ? errSecDecode : status, outcome: .failed)
    }

    private func load(account: String) -> (OSStatus, Data?) {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: Self.service, kSecAttrAccount: account,
            kSecReturnData: true, kSecMatchLimit: kSecMatchLimitOne,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, status == errSecSuccess ? found as? Data : nil)
    }
}
