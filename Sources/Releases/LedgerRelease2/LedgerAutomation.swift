import AppHarness
import Foundation
import LedgerRelease1
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Ledger 2.0's automation: what a launch reports about the schema version, and the seed, verify
/// and cleanup modes of the builds that keep everything in the keychain (v2 and later). It reads
/// values only to compare them; it reports words.
extension LedgerAutomation {
    /// The schema version stored in the keychain, nil when none or unreadable.
    public static func storedSchemaVersion() -> Int? {
        let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: LedgerNames.versionAccount)
        guard status == errSecSuccess, let data else { return nil }
        return Int(String(decoding: data, as: UTF8.self))
    }

    /// Ends a launch's status with the stored schema version and the legacy stores.
    public static func finish(_ launch: HarnessLaunch) {
        launch.setSchemaVersion(storedSchemaVersion())
        launch.setLegacy(legacyState(launch.environment))
    }

    /// The session the case expects, as v2 and later store it.
    public static func expectedSession(_ launch: HarnessLaunch) -> SessionRecord {
        SessionRecord(userID: LedgerNames.userID(launch.caseID), accessToken: launch.secrets.sessionToken)
    }

    // MARK: Keychain-era modes (v2 and later)

    /// Writes the case's data as a keychain-era build keeps it.
    /// - Parameters:
    ///   - schemaVersion: the version to store.
    ///   - deviceKeyAccessible: the class of the automation device key (nil: the default class).
    ///   - malformed: a non-UTF-8 `authToken` and a `session` that is not JSON.
    ///   - laterItems: accounts and values a later release keeps beside v2's, stored after them.
    public static func seedKeychain(
        _ launch: HarnessLaunch, schemaVersion: Int, deviceKeyAccessible: String?,
        malformed: Bool, laterItems: [(account: String, data: Data)] = []
    ) {
        let secrets = launch.secrets
        let tight = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String
        let session = (try? expectedSession(launch).encoded()) ?? Data()
        // `-UITestSeedMalformedStore <label>` narrows the malformed seed to the stores it names.
        let malformed = { (label: String) in malformed && launch.malforms(label) }
        var values: [(String, Data)] = [
            ("authToken", malformed("authToken") ? Data([0xFF, 0xFE, 0x00, 0xC3]) : Data(secrets.authToken.utf8)),
            ("refreshToken", Data(secrets.refreshToken.utf8)),
            (LedgerNames.sessionAccount, malformed(LedgerNames.sessionAccount) ? Data("{not json".utf8) : session),
            (LedgerNames.versionAccount, Data(String(schemaVersion).utf8)),
        ]
        values += laterItems.map { ($0.account, $0.data) }
        for (account, data) in values {
            let (operation, status) = KeychainProbe.addOrUpdate(
                data, service: LedgerNames.service, account: account,
                accessible: tight)
            launch.record(account, .keychain, operation, status, status == errSecSuccess ? .written : .failed)
        }
        let (operation, status) = KeychainProbe.addOrUpdate(
            Data(secrets.deviceKey.utf8), service: LedgerNames.deviceKeyService(launch.caseID),
            account: LedgerNames.deviceKeyAccount(launch.caseID), accessible: deviceKeyAccessible)
        launch.record("deviceKey", .keychain, operation, status, status == errSecSuccess ? .written : .failed)
        let marked = launch.environment.defaults.set(true, forKey: LedgerNames.installMarkerKey)
        if !marked { launch.recordError(LedgerNames.installMarkerKey, .preferences, "set", EPERM) }
        finish(launch)
    }

    /// Reads every item a keychain-era build keeps and compares it with the case's secrets.
    /// - Parameter laterItems: reads a later release adds, after the device key's.
    public static func verifyKeychain(_ launch: HarnessLaunch, laterItems: (HarnessLaunch) -> Void = { _ in }) {
        let secrets = launch.secrets
        for (account, expected) in [("authToken", secrets.authToken), ("refreshToken", secrets.refreshToken)] {
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: account)
            launch.recordRead(account, .keychain, "SecItemCopyMatching", status, actual: data, expected: Data(expected.utf8))
        }
        let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: LedgerNames.sessionAccount)
        let session = data.flatMap { try? JSONDecoder().decode(SessionRecord.self, from: $0) }
        launch.record(
            LedgerNames.sessionAccount, .keychain, "SecItemCopyMatching", status,
            KeychainProbe.result(of: status, matches: session == expectedSession(launch)))
        verifyDeviceKey(launch)
        laterItems(launch)
        finish(launch)
    }

    /// Deletes the case's items by exact service and account, never by a broader query.
    public static func cleanupKeychain(_ launch: HarnessLaunch, accounts: [String]) {
        for account in accounts {
            recordDelete(launch, account, KeychainProbe.deleteExact(service: LedgerNames.service, account: account))
        }
        cleanupDeviceKey(launch)
        finish(launch)
    }
}
