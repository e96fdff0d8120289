import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// What a device held at one moment, in a form that compares equal when nothing changed and
/// shows no value: keychain items, the app's preferences and its files, each with a keyed digest
/// (``DeviceRedaction``: HMAC-SHA256 under the device's own random key) instead of the value.
struct DeviceSnapshot: Codable, Hashable, Sendable {
    struct Item: Codable, Hashable, Sendable, Comparable {
        var itemClass: String
        var accessGroup: String
        var service: String
        var account: String
        var accessible: String
        var synchronizable: Bool
        var digest: String
        /// Whether the item is one of the app's bookkeeping items, as its builds declare them (the
        /// schema version, the migration date). marker-without-data keeps these; malformed-keeps-old
        /// lets a migration move them on; cleanup-exact and reinstall-sweeps exempt them.
        var bookkeeping = false
        /// An internet password's `kSecAttrPort` and `kSecAttrProtocol` (the four-character code), nil when absent
        /// or the keychain's default (0): with the server and account they say which item it is.
        var port: String? = nil
        var protocolCode: String? = nil

        /// The item's identity in the store (its class and primary key as an app names it).
        var key: String { "\(itemClass)/\(accessGroup)/\(service)/\(account)/\(synchronizable ? 1 : 0)" }

        /// The item's identity apart from its access group: an item a build moved into another
        /// group (a bridge release before an app transfer, the import after it) is still the same
        /// item when this and its bytes are unchanged.
        var movableKey: String { "\(itemClass)/\(service)/\(account)/\(synchronizable ? 1 : 0)" }

        /// The item's kind: its class and whether it is synchronizable (a sweep scoped without
        /// kSecAttrSynchronizableAny misses the synchronizable kind of a class).
        var kind: String { Self.kind(itemClass, synchronizable: synchronizable) }

        /// The kind of an item of `itemClass`, synchronizable or not.
        static func kind(_ itemClass: String, synchronizable: Bool) -> String { "\(itemClass)/\(synchronizable ? 1 : 0)" }

        /// An attribute's text, nil for the keychain's default of an absent one (0, or a code of NUL bytes).
        static func present(_ text: String?) -> String? {
            guard let text = text?.trimmingCharacters(in: CharacterSet(charactersIn: "\u{0}")), !text.isEmpty, text != "0"
            else { return nil }
            return text
        }

        static func < (lhs: Item, rhs: Item) -> Bool { (lhs.key, lhs.digest) < (rhs.key, rhs.digest) }
    }

    var keychain: [Item]
    /// Preference key to keyed digest of its value.
    var preferences: [String: String]
    /// File path (relative to the data container) to keyed digest of its bytes. The status file,
    /// `tmp/` and the preferences plist itself are left out.
    var files: [String: String]
    /// The app's groups' containers: `<group>/<path>` to the keyed digest of each file's bytes (the
    /// group's preferences plist left out), and `<group>/<key>` to that of each of the group's
    /// preferences (`UserDefaults(suiteName:)`). Empty for an app without groups.
    var groupFiles: [String: String] = [:]
    var groupPreferences: [String: String] = [:]

    /// Takes a snapshot of the device `session` holds for the app `bundleID` and its app `groups`,
    /// marking the items `isBookkeeping` names. `keychain`: the device's items, read by the caller
    /// (``ScenarioDevice/keychainItems()``).
    static func take(
        _ session: DeviceSession, bundleID: String, groups: [String] = [],
        isBookkeeping: (KeychainItemRecord) -> Bool = { _ in false },
        keychain: [KeychainItemRecord]
    ) throws -> DeviceSnapshot {
        let redaction = try session.deviceRedaction()
        func digest(_ data: Data) -> String { redaction.digest(data) }
        let items = keychain.map { record in
            Item(
                itemClass: record.itemClass, accessGroup: record.accessGroup, service: record.service ?? "",
                account: record.account ?? "", accessible: record.accessible, synchronizable: record.synchronizable,
                digest: digest(record.data ?? Data()), bookkeeping: isBookkeeping(record),
                port: record.itemClass == "inet" ? Item.present(record.attributes["port"]) : nil,
                protocolCode: record.itemClass == "inet" ? Item.present(record.attributes["ptcl"]) : nil)
        }.sorted()
        /// Each key of the preferences plist at `path` to the digest of its value's binary plist.
        func preferences(at path: String) -> [String: String] {
            guard let data = FileManager.default.contents(atPath: path),
                let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            else { return [:] }
            return plist.mapValues { value in
                digest((try? PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)) ?? Data())
            }
        }
        /// Each file of `container` (`pruning` left out) to the digest of its bytes, from the
        /// session's one read of the container per device state.
        func files(in container: Container, pruning: Set<String>) -> [String: String] {
            var files: [String: String] = [:]
            for file in session.files(in: container, pruning: pruning)
            where !(file.relative as NSString).lastPathComponent.hasPrefix(".com.") {
                files[file.relative] = digest(file.contents ?? Data())
            }
            return files
        }
        var snapshot = DeviceSnapshot(keychain: items, preferences: [:], files: [:])
        if let container = session.dataContainer(bundleID) {
            snapshot.preferences = preferences(at: container.path + "/" + AppContainers.preferencesFilePath(domain: bundleID))
            snapshot.files = files(in: container, pruning: [AppContainers.tmpPath, AppContainers.preferencesPath])
        }
        for group in groups.sorted() {
            guard let container = session.groupContainer(group) else { continue }
            let plist = AppContainers.preferencesFilePath(domain: group)
            for (path, digest) in files(in: container, pruning: []) where path != plist {
                snapshot.groupFiles[group + "/" + path] = digest
            }
            for (key, digest) in preferences(at: container.path + "/" + plist) {
                snapshot.groupPreferences[group + "/" + key] = digest
            }
        }
        return snapshot
    }

    /// The JSON a redacted device folder holds: names and keyed digests only.
    func encoded() throws -> Data {
        GateJSON.pretty(self)
    }
}
