// ExtensionSampleApp: a small app with a notification service extension, for the extension-first
// scenario (issue 39). One executable plays both parts, as the launch context says (an extension's
// launch has `launch.appExtension`); the release is the installed build's (build.json beside the
// executable, which the device installs into the app's bundle and into each extension's).
// - 1.0 keeps the session in the keychain under service `com.example.notes`, in the access group it
//   shares with its extension; its extension reads it there.
// - 2.0 moves it to service `com.example.notes.v2` on the app's launch (added, then the old item
//   deleted). Its extension reads the new place, and the old one while the app has not migrated yet.
// - The known-bad 2.0 (build id ending `-new-only`): its extension reads only the new place, so a push
//   that arrives before the user opens the new release shows them signed out.
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

    func launch(_ launch: HarnessLaunch) async {
        // An extension never migrates: the app does, on its own launch.
        guard launch.appExtension == nil, release != "1.0" else { return }
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

    /// The first screen's read (the app's, or the extension's before it shows a preview): the session.
    func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
        let places =
            release == "1.0"
            ? [Self.oldService]
            : launch.appExtension != nil && readsOnlyNewPlace ? [Self.newService] : [Self.newService, Self.oldService]
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
