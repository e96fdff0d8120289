import AppHarness
import Foundation
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Ledger 1.0 (build 100, schema 0), frozen: the tokens in preferences, the session in an
/// NSKeyedArchiver archive, one keychain item with the default accessibility, and non-secret
/// caches in Documents. It has no migration.
public struct LedgerV1Build: AppBuild {
    public let buildID = "v1"

    public init() {}

    public func seed(_ launch: HarnessLaunch) async { write(launch, malformed: false) }

    public func seedMalformed(_ launch: HarnessLaunch) async { write(launch, malformed: true) }

    /// The legacy data: valid, or malformed (a number for `authToken`, non-UTF-8 bytes for
    /// `refreshToken`, an archive that is not an archive; only the stores
    /// `-UITestSeedMalformedStore` names, when it names any). The device key is valid in both.
    private func write(_ launch: HarnessLaunch, malformed: Bool) {
        let environment = launch.environment
        let secrets = launch.secrets
        let defaults = environment.defaults
        // `-UITestSeedMalformedStore <label>` narrows the malformed seed to the stores it names.
        let malformed = { (label: String) in malformed && launch.malforms(label) }
        let prefs: [(String, Any)] = [
            ("authToken", malformed("authToken") ? NSNumber(value: 4_815_162_342) : secrets.authToken),
            ("refreshToken", malformed("refreshToken") ? Data([0xC3, 0x28, 0xFF, 0xFE]) : secrets.refreshToken),
        ]
        for (key, value) in prefs {
            let stored = defaults.set(value, forKey: key)
            launch.record(key, .preferences, "set", stored ? 0 : EPERM, stored ? .written : .failed)
        }
        let session = LegacySession(userID: LedgerNames.userID(launch.caseID), token: secrets.sessionToken)
        let archive =
            malformed("session")
            ? Data("bplist00 this is not a keyed archive".utf8)
            : (try? NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: true)) ?? Data()
        writeFile(
            launch, "session", .archive, archive,
            to: environment.applicationSupport.appendingPathComponent(LedgerNames.sessionArchive))
        for (name, data) in Self.artefacts() {
            writeFile(launch, name, .file, data, to: environment.documents.appendingPathComponent(name))
        }
        let (operation, status) = KeychainProbe.addOrUpdate(
            Data(secrets.deviceKey.utf8), service: LedgerNames.deviceKeyService(launch.caseID),
            account: LedgerNames.deviceKeyAccount(launch.caseID))
        launch.record("deviceKey", .keychain, operation, status, status == errSecSuccess ? .written : .failed)
        launch.setLegacy(LedgerAutomation.legacyState(environment))
    }

    private func writeFile(_ launch: HarnessLaunch, _ name: String, _ location: StoreLocation, _ data: Data, to url: URL) {
        do {
            try launch.environment.files.write(data, to: url)
            launch.record(name, location, "write", 0, .written)
        } catch {
            launch.record(name, location, "write", error.code, .failed)
        }
    }

    /// The non-secret artefacts v1 keeps in Documents (a feed cache, its own settings plist and a
    /// cache of the session list without tokens).
    static func artefacts() -> [(String, Data)] {
        let settings: [String: Any] = ["theme": "dark", "showBalances": true]
        let plist = (try? PropertyListSerialization.data(fromPropertyList: settings, format: .xml, options: 0)) ?? Data()
        let cache =
            (try? NSKeyedArchiver.archivedData(
                withRootObject: ["inbox", "recent"] as NSArray,
                requiringSecureCoding: true)) ?? Data()
        return [
            ("FeedCache.dat", Data("LEDGERFEED1\u{0}\u{3}".utf8)), ("Preferences.plist", plist),
            ("SessionCache.archive", cache),
        ]
    }

    public func verify(_ launch: HarnessLaunch) async {
        let environment = launch.environment
        let secrets = launch.secrets
        for (key, expected) in [("authToken", secrets.authToken), ("refreshToken", secrets.refreshToken)] {
            let value = environment.defaults.string(forKey: key)
            launch.record(
                key, .preferences, "string(forKey:)", 0,
                value == nil ? .missing : (value == expected ? .found : .mismatch))
        }
        let file = environment.applicationSupport.appendingPathComponent(LedgerNames.sessionArchive)
        do {
            let data = try environment.files.read(file)
            let session = try? NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: data)
            let matches = session?.token == secrets.sessionToken && session?.userID == LedgerNames.userID(launch.caseID)
            launch.record(
                "session", .archive, "NSKeyedUnarchiver", session == nil ? errSecDecode : 0,
                matches ? .found : .mismatch)
        } catch {
            let result: ItemResult =
                switch error.code {
                case ENOENT: .missing
                case EPERM: .locked
                default: .failed
                }
            launch.record("session", .archive, "read", error.code, result)
        }
        LedgerAutomation.verifyDeviceKey(launch)
        launch.setLegacy(LedgerAutomation.legacyState(environment))
    }

    public func cleanup(_ launch: HarnessLaunch) async {
        LedgerAutomation.cleanupDeviceKey(launch)
        launch.setLegacy(LedgerAutomation.legacyState(launch.environment))
    }

    /// v1's own launch: it reads its tokens from preferences and migrates nothing.
    public func launch(_ launch: HarnessLaunch) async {
        let defaults = launch.environment.defaults
        for key in LedgerNames.legacyPreferenceKeys {
            launch.record(key, .preferences, "string(forKey:)", 0, defaults.string(forKey: key) == nil ? .missing : .found)
        }
        launch.setLegacy(LedgerAutomation.legacyState(launch.environment))
    }
}
