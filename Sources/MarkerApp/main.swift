// MarkerApp: an app build whose migration is written as iOS code is (Foundation and Security), for
// the power-loss scenario's tests. Release 1.0 keeps a token in `Documents/legacy.plist` (the
// declared seed writes it). A 2.x launch takes a first launch with neither its install marker nor
// the legacy file for a reinstall and sweeps the keychain; it sets the marker, then moves the token
// into the keychain (added, read back) and removes the legacy file.
// - 2.0 keeps the marker in UserDefaults. A power loss takes the launch's sets, not the file's
//   removal: the next launch finds no marker and no legacy file, and sweeps the token away.
// - 2.1 keeps it in a file written with `Data.write(options: .atomic)`, which syncs before its
//   rename: a power loss leaves it, or (before the rename) the legacy file is still there.
// - 2.2 keeps the marker as 2.1 does and sweeps only its own service (every item of
//   `com.example.marker`, synchronizable or not): what another SDK left stays, sweep hygiene only.
// The release is the installed build's `CFBundleShortVersionString`.
import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

struct MarkerBuild: AppBuild {
    let release: String
    var buildID: String { ["2.0": "marker2", "2.1": "marker2-file", "2.2": "marker2-own-sweep"][release] ?? "marker1" }

    static let markerKey = "marker.installed"
    static var query: [CFString: Any] {
        [kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.marker", kSecAttrAccount: "token"]
    }
    let files = FileManager.default
    var legacyURL: URL { files.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("legacy.plist") }
    var markerURL: URL {
        files.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0].appendingPathComponent("installed")
    }

    var markerPresent: Bool {
        release == "2.0" ? UserDefaults.standard.bool(forKey: Self.markerKey) : files.fileExists(atPath: markerURL.path)
    }

    func setMarker() {
        guard release != "2.0" else { return UserDefaults.standard.set(true, forKey: Self.markerKey) }
        try? files.createDirectory(at: markerURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data().write(to: markerURL, options: .atomic)
    }

    func launch(_ launch: HarnessLaunch) async {
        guard release != "1.0" else { return }
        if !markerPresent {
            if !files.fileExists(atPath: legacyURL.path) {
                let sweep: [CFString: Any] =
                    release == "2.2"
                    ? [
                        kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.marker",
                        kSecAttrSynchronizable: kSecAttrSynchronizableAny,
                    ] : [kSecClass: kSecClassGenericPassword]
                let status = SecItemDelete(sweep as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else {
                    return launch.recordError("sweep", .keychain, "SecItemDelete", status)
                }
            }
            setMarker()
        }
        guard let data = try? Data(contentsOf: legacyURL),
            let legacy = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any],
            let token = (legacy["token"] as? String).map({ Data($0.utf8) })
        else { return launch.setMigration(MigrationOutcome(state: .upToDate)) }
        var status = SecItemAdd(
            Self.query.merging([kSecValueData: token, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock]) { $1 }
                as CFDictionary,
            nil)
        if status == errSecDuplicateItem {
            status = SecItemUpdate(Self.query as CFDictionary, [kSecValueData: token] as CFDictionary)
        }
        var stored: CFTypeRef?
        if status == errSecSuccess {
            status = SecItemCopyMatching(Self.query.merging([kSecReturnData: true]) { $1 } as CFDictionary, &stored)
        }
        guard status == errSecSuccess, stored as? Data == token, (try? files.removeItem(at: legacyURL)) != nil else {
            launch.recordError("token", .keychain, "SecItemAdd", status == errSecSuccess ? errSecIO : status)
            return launch.setMigration(MigrationOutcome(state: .failed))
        }
        launch.record("token", .keychain, "SecItemAdd", errSecSuccess, .written)
        launch.setMigration(MigrationOutcome(state: .migrated))
    }
}

await Harness.main(
    MarkerBuild(release: Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "1.0"))
