// ExtensionSampleApp: a small app with a notification service extension, for the extension-first
// scenario (issue 39). One executable plays both parts, as the launch context says (an extension's
// launch has `launch.appExtension`); the release is the installed build's (build.json beside the
// executable, which the device installs into the app's bundle and into each extension's).
// - 1.0 keeps the session in the keychain under service `com.example.notes`, in the access group it
//   shares with its extension; its extension reads it there.
// - 2.0 moves it to service `com.example.notes.v2` on the app's launch (added, then the old item
//   deleted). Its extension reads the old place, then the new one: the app adds the new item before
//   it deletes the old one, so a read in that order finds the session whatever the app is doing at
//   the same moment (new place first would miss both between the app's add and its delete: the
//   interleavings scenario finds that schedule).
// - The known-bad 2.0 (build id ending `-new-only`): its extension reads only the new place, so a push
//   that arrives before the user opens the new release shows them signed out.
// - The known-bad 2.0 (build id ending `-new-first`): its extension reads the new place, then the old
//   one; between the app's add and its delete it misses both (interleavings: stays-signed-in).
// - The known-bad 2.0 (build id ending `-both-migrate`): the extension migrates too, with the app's
//   code, which takes a duplicate item on its add for another process's migration in progress and
//   backs out by deleting the new item: in some interleaving that deletes what the other process
//   has just added, and the other then deletes the old one (interleavings).
import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

struct NotesSample: AppBuild {
    let buildID: String
    let release: String

    static let oldService = "com.example.notes"
    static let newService = "com.example.notes.v2"
    static let account = "session"

    var readsOnlyNewPlace: Bool { buildID.hasSuffix("-new-only") }
    var bothMigrate: Bool { buildID.hasSuffix("-both-migrate") }
    var readsNewFirst: Bool { buildID.hasSuffix("-new-first") }

    func launch(_ launch: HarnessLaunch) async {
        guard release != "1.0" else { return }
        if bothMigrate { return migrateBackingOff(launch) }
        // An extension never migrates: the app does, on its own launch.
        guard launch.appExtension == nil else { return }
        let (status, old) = KeychainProbe.read(service: Self.oldService, account: Self.account)
        guard status == errSecSuccess, let old else {
            return launch.setMigration(MigrationOutcome(state: .upToDate))
        }
        let (operation, added) = KeychainProbe.addOrUpdate(
            old, service: Self.newService, account: Self.account, accessible: kSecAttrAccessibleAfterFirstUnlock as String)
        guard added == errSecSuccess else {
            launch.recordError(Self.account, .keychain, operation, added)
            return launch.setMigration(MigrationOutcome(state: .failed))
        }
        let deleted = KeychainProbe.deleteExact(service: Self.oldService, account: Self.account)
        launch.record(Self.account, .keychain, "SecItemDelete", deleted, deleted == errSecSuccess ? .removed : .failed)
        launch.setMigration(MigrationOutcome(state: .migrated))
    }

    /// The known-bad migration both processes run: an item already at the new place when it adds
    /// is taken for another process's migration in progress, and the add is undone by a delete.
    func migrateBackingOff(_ launch: HarnessLaunch) {
        if KeychainProbe.read(service: Self.newService, account: Self.account).status == errSecSuccess {
            return launch.setMigration(MigrationOutcome(state: .upToDate))
        }
        let (status, old) = KeychainProbe.read(service: Self.oldService, account: Self.account)
        guard status == errSecSuccess, let old else {
            return launch.setMigration(MigrationOutcome(state: .upToDate))
        }
        let item: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: Self.newService, kSecAttrAccount: Self.account,
            kSecValueData: old, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
        ]
        let added = SecItemAdd(item as CFDictionary, nil)
        if added == errSecDuplicateItem {
            // "Someone else is migrating": back out, and let that one finish.
            let undone = KeychainProbe.deleteExact(service: Self.newService, account: Self.account)
            launch.record(Self.account, .keychain, "SecItemDelete", undone, undone == errSecSuccess ? .removed : .failed)
            return launch.setMigration(MigrationOutcome(state: .upToDate))
        }
        guard added == errSecSuccess else {
            launch.recordError(Self.account, .keychain, "SecItemAdd", added)
            return launch.setMigration(MigrationOutcome(state: .failed))
        }
        let deleted = KeychainProbe.deleteExact(service: Self.oldService, account: Self.account)
        launch.record(Self.account, .keychain, "SecItemDelete", deleted, deleted == errSecSuccess ? .removed : .failed)
        launch.setMigration(MigrationOutcome(state: .migrated))
    }

    /// The first screen's read (the app's, or the extension's before it shows a preview): the session.
    func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
        let places =
            release == "1.0"
            ? [Self.oldService]
            : launch.appExtension == nil
                ? [Self.newService, Self.oldService]
                : readsOnlyNewPlace
                    ? [Self.newService]
                    : readsNewFirst ? [Self.newService, Self.oldService] : [Self.oldService, Self.newService]
        var last: (status: OSStatus, data: Data?) = (errSecItemNotFound, nil)
        for service in places {
            last = KeychainProbe.read(service: service, account: Self.account)
            if last.status == errSecSuccess { break }
        }
        return [
            SecretRead(Self.account, from: .keychain, operation: "SecItemCopyMatching", status: last.status, value: last.data)
        ]
    }
}

/// The installed build's id and release, from the build.json the device installs beside the executable.
struct Installed: Decodable {
    var id: String
    var marketingVersion: String

    static func read() -> Installed {
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let manifest = executable.deletingLastPathComponent().appendingPathComponent("build.json")
        guard let data = FileManager.default.contents(atPath: manifest.path),
            let installed = try? JSONDecoder().decode(Installed.self, from: data)
        else { return Installed(id: "notes-unknown", marketingVersion: "0") }
        return installed
    }
}

let installed = Installed.read()
await Harness.main(NotesSample(buildID: installed.id, release: installed.marketingVersion))
