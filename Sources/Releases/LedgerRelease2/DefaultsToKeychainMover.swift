import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// How one preference key's move ended.
public enum KeyMigrationResult: Sendable, Equatable {
    case moved
    case nothingToMove
    /// The key keeps its source value; `operation` and `status` say why.
    case failed(operation: String, status: OSStatus)
}

/// Seed 000's atomic move of preference keys into the keychain: read, write (add-or-update),
/// read back and compare, and only then delete the preference. A failed key keeps its source, so
/// the move is idempotent and retried next launch.
///
/// A stored value that is not a string (a number, non-UTF-8 bytes) is malformed legacy input: it
/// is neither converted nor deleted, and the key fails with `errSecDecode`.
public actor DefaultsToKeychainMover {
    private let vault: any MigrationKeychainProtocol
    private let defaults: any AppDefaults
    private let journal: any LaunchJournal

    public init(vault: any MigrationKeychainProtocol, defaults: any AppDefaults, journal: any LaunchJournal) {
        self.vault = vault
        self.defaults = defaults
        self.journal = journal
    }

    public func move(keys: [String]) async -> [String: KeyMigrationResult] {
        var report: [String: KeyMigrationResult] = [:]
        for key in keys {
            report[key] = await move(key)
        }
        return report
    }

    private func move(_ key: String) async -> KeyMigrationResult {
        guard let stored = defaults.persistentDomain()[key] else { return .nothingToMove }
        guard let plaintext = stored as? String else {
            journal.record(key, .preferences, "decode", errSecDecode, .kept)
            return .failed(operation: "decode", status: errSecDecode)
        }
        let payload = Data(plaintext.utf8)
        do {
            let call = try await vault.save(
                payload, account: key,
                accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
            guard try await vault.read(account: key) == payload else {
                journal.record(key, .keychain, "SecItemCopyMatching", errSecSuccess, .mismatch)
                return .failed(operation: "readBack", status: errSecDecode)
            }
            journal.record(key, .keychain, call, errSecSuccess, .written)
        } catch {
            journal.record(key, .keychain, error.operation, error.status, .failed)
            return .failed(operation: error.operation, status: error.status)
        }
        guard defaults.removeObject(forKey: key) else {
            journal.record(key, .preferences, "removeObject", EPERM, .kept)
            return .failed(operation: "removeObject", status: EPERM)
        }
        journal.record(key, .preferences, "removeObject", 0, .removed)
        return .moved
    }
}
