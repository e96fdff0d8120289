import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// The keychain of mutant `accessible-in-query`: its read query carries `kSecAttrAccessible`
/// (copied from the add dictionary), which turns the search into a filter. Items stored in any
/// other class, such as the device key an older release added with the default class, read as
/// `errSecItemNotFound` ("the phantom mismatch"). Writes and deletes are v2's (add-or-update and
/// delete by primary key).
public actor AccessibleInQueryKeychain: MigrationKeychainProtocol {
    /// Writes and deletes as v2 does; only the read is wrong.
    private let items = ServiceItems(service: LedgerNames.service)

    public init() {}

    /// The class the mutant writes and, wrongly, searches by.
    public static let accessible = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String

    /// `SecItemCopyMatching` with `kSecAttrAccessible` in the query.
    public static func read(service: String, account: String) -> (status: OSStatus, data: Data?) {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account,
            kSecAttrAccessible: accessible as CFString, kSecReturnData: true, kSecMatchLimit: kSecMatchLimitOne,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, status == errSecSuccess ? found as? Data : nil)
    }

    @discardableResult
    public func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        try items.save(data, account: account, accessibility: accessibility)
    }

    public func read(account: String) throws(KeychainFailure) -> Data? {
        let (status, data) = Self.read(service: LedgerNames.service, account: account)
        switch status {
        case errSecSuccess: return data
        case errSecItemNotFound: return nil
        default: throw KeychainFailure(status, operation: "SecItemCopyMatching")
        }
    }

    public func delete(account: String) throws(KeychainFailure) { try items.delete(account: account) }
}

/// Verify and cleanup for mutants that read or keep their items differently from v2 and v3
/// (another service, another read query). Names and results only, as every build reports them.
public enum MutantAutomation {
    /// A build's read of one generic password: its OSStatus and the data when it succeeded.
    public typealias Read = @Sendable (_ service: String, _ account: String) -> (status: OSStatus, data: Data?)

    /// Reads the case's items with `read`, the app's own tokens and session under `service`.
    public static func verifyKeychain(_ launch: HarnessLaunch, service: String, read: Read) {
        let secrets = launch.secrets
        for (account, expected) in [("authToken", secrets.authToken), ("refreshToken", secrets.refreshToken)] {
            let (status, data) = read(service, account)
            launch.recordRead(account, .keychain, "SecItemCopyMatching", status, actual: data, expected: Data(expected.utf8))
        }
        let (status, data) = read(service, LedgerNames.sessionAccount)
        let session = data.flatMap { try? JSONDecoder().decode(SessionRecord.self, from: $0) }
        launch.record(
            LedgerNames.sessionAccount, .keychain, "SecItemCopyMatching", status,
            KeychainProbe.result(of: status, matches: session == LedgerAutomation.expectedSession(launch)))
        let (keyStatus, key) = read(LedgerNames.deviceKeyService(launch.caseID), LedgerNames.deviceKeyAccount(launch.caseID))
        launch.recordRead(
            "deviceKey", .keychain, "SecItemCopyMatching", keyStatus, actual: key,
            expected: Data(launch.secrets.deviceKey.utf8))
        LedgerAutomation.finish(launch)
    }

    /// Deletes the case's items by exact service and account under `service`, and the device key.
    public static func cleanupKeychain(_ launch: HarnessLaunch, service: String, accounts: [String]) {
        for account in accounts {
            LedgerAutomation.recordDelete(launch, account, KeychainProbe.deleteExact(service: service, account: account))
        }
        LedgerAutomation.cleanupDeviceKey(launch)
        LedgerAutomation.finish(launch)
    }
}

/// The keychain of mutant `availability-narrowed`: v2's, except that every save lands in
/// `kSecAttrAccessibleWhenUnlocked`, whatever class the step asks for. The tokens it migrates from
/// preferences (readable after first unlock) become unreadable while the device is locked.
public actor WhenUnlockedKeychain: MigrationKeychainProtocol {
    private let items = ServiceItems(service: LedgerNames.service)

    public init() {}

    @discardableResult
    public func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        try items.save(data, account: account, accessibility: kSecAttrAccessibleWhenUnlocked as String)
    }

    public func read(account: String) throws(KeychainFailure) -> Data? { try items.read(account: account) }

    public func delete(account: String) throws(KeychainFailure) { try items.delete(account: account) }
}
