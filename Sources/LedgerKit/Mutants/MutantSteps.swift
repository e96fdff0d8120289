import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Step 0 -> 1 of mutant `delete-before-write`: each preference is removed first and written to
/// the keychain after (seed 000: "Removing the plaintext before the keychain write is confirmed is
/// the single most dangerous mistake"). A crash or a failed write in between loses the secret.
public struct DeleteBeforeWriteStep: MigrationStep {
    public let from = 0
    let vault: any MigrationKeychainProtocol
    let defaults: any AppDefaults
    let journal: any LaunchJournal

    public init(_ parts: LedgerParts) {
        vault = parts.vault
        defaults = parts.environment.defaults
        journal = parts.journal
    }

    public func run() async throws(MigrationError) {
        for key in LedgerNames.legacyPreferenceKeys {
            guard let plaintext = defaults.persistentDomain()[key] as? String else { continue }
            defaults.removeObject(forKey: key)
            journal.record(key, .preferences, "removeObject", 0, .removed)
            let payload = Data(plaintext.utf8)
            try await saveAndReadBack(payload, key: key, vault: vault, journal: journal)
        }
    }
}

/// Step 0 -> 1 of mutant `no-read-back`: write, then delete the preference, without reading the
/// keychain copy back. A write that reports success but stored nothing loses the secret.
public struct NoReadBackStep: MigrationStep {
    public let from = 0
    let vault: any MigrationKeychainProtocol
    let defaults: any AppDefaults
    let journal: any LaunchJournal

    public init(_ parts: LedgerParts) {
        vault = parts.vault
        defaults = parts.environment.defaults
        journal = parts.journal
    }

    public func run() async throws(MigrationError) {
        for key in LedgerNames.legacyPreferenceKeys {
            guard let plaintext = defaults.persistentDomain()[key] as? String else { continue }
            do {
                let call = try await vault.save(
                    Data(plaintext.utf8), account: key,
                    accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
                journal.record(key, .keychain, call, errSecSuccess, .written)
            } catch {
                journal.record(key, .keychain, error.operation, error.status, .failed)
                throw .keychain(error)
            }
            defaults.removeObject(forKey: key)
            journal.record(key, .preferences, "removeObject", 0, .removed)
        }
    }
}

/// Step 0 -> 1 as code that trusts the schema version to run it once: it copies each preference
/// into the keychain as it reads, an absent one as empty, then removes it. Mutant
/// `migrate-every-launch` runs it every launch: the second launch reads nothing and writes empty
/// values over good keychain items (seed 000, trap 3).
public struct CopyPreferencesStep: MigrationStep {
    public let from = 0
    let vault: any MigrationKeychainProtocol
    let defaults: any AppDefaults
    let journal: any LaunchJournal

    public init(_ parts: LedgerParts) {
        vault = parts.vault
        defaults = parts.environment.defaults
        journal = parts.journal
    }

    public func run() async throws(MigrationError) {
        for key in LedgerNames.legacyPreferenceKeys {
            let payload = Data((defaults.string(forKey: key) ?? "").utf8)
            do {
                let call = try await vault.save(
                    payload, account: key,
                    accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
                journal.record(key, .keychain, call, errSecSuccess, .written)
            } catch {
                journal.record(key, .keychain, error.operation, error.status, .failed)
                throw .keychain(error)
            }
            defaults.removeObject(forKey: key)
        }
    }
}

/// Step 0 -> 1 of mutant `prewarm-empty-read`: decides "nothing to migrate" from the preference
/// keys that were there when the launch began, a read that a prewarmed launch takes before first
/// unlock (when preferences read as empty). The migration then completes and the schema version
/// moves on, so the preferences are never migrated.
public struct EmptyReadMeansDoneStep: MigrationStep {
    public let from = 0
    let keysAtLaunch: [String]
    let step: any MigrationStep

    /// - Parameters:
    ///   - keysAtLaunch: the legacy preference keys the launch saw when it began.
    ///   - step: the real step, run when that early read found any.
    public init(keysAtLaunch: [String], step: any MigrationStep) {
        self.keysAtLaunch = keysAtLaunch
        self.step = step
    }

    public func run() async throws(MigrationError) {
        guard !keysAtLaunch.isEmpty else { return }
        try await step.run()
    }
}

/// Mutant `crash-on-corrupt-archive`: at the start of a launch the app reads the legacy session
/// archive (to greet the user before the migration moves it) with `try!` and a force-unwrap, so a
/// corrupt archive crashes the app instead of failing gracefully (seed 000: "An unknown or corrupt
/// legacy format fails gracefully ... it never crashes").
public enum LegacySessionPeek {
    /// The archived session's user id, when an archive is there; a corrupt archive traps.
    @discardableResult
    public static func userIDOrCrash(_ environment: AppEnvironment) -> String? {
        let archive = environment.applicationSupport.appendingPathComponent(LedgerNames.sessionArchive)
        guard environment.files.fileExists(archive), let raw = try? environment.files.read(archive) else { return nil }
        let session = try! NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: raw)!
        return session.userID
    }
}

/// Step 0 -> 1 of the mutants that change a token's bytes on the way into the keychain: the move
/// is seed 000's (write, read back and compare, then delete the preference), but what it writes is
/// `rewrite` of the preference, not the preference. A team adds such a rewrite "to tidy" a token
/// (a trim of pasted whitespace) or "to be safe" (percent-encoding for a URL it is later put in);
/// both are invisible to tokens of letters and digits, and lose every other token.
public struct RewritingMoveStep: MigrationStep {
    public let from = 0
    let vault: any MigrationKeychainProtocol
    let defaults: any AppDefaults
    let journal: any LaunchJournal
    let rewrite: @Sendable (String) -> String

    public init(_ parts: LedgerParts, rewrite: @escaping @Sendable (String) -> String) {
        vault = parts.vault
        defaults = parts.environment.defaults
        journal = parts.journal
        self.rewrite = rewrite
    }

    public func run() async throws(MigrationError) {
        for key in LedgerNames.legacyPreferenceKeys {
            guard let plaintext = defaults.persistentDomain()[key] as? String else { continue }
            let payload = Data(rewrite(plaintext).utf8)
            try await saveAndReadBack(payload, key: key, vault: vault, journal: journal)
            defaults.removeObject(forKey: key)
            journal.record(key, .preferences, "removeObject", 0, .removed)
        }
    }
}

/// Writes `payload` under `key` as v2's step 0 -> 1 does (`cku`), reads it back and compares, and
/// records the write; the mutant steps differ in what they write and when they remove the preference.
private func saveAndReadBack(
    _ payload: Data, key: String, vault: any MigrationKeychainProtocol, journal: any LaunchJournal
) async throws(MigrationError) {
    do {
        let call = try await vault.save(
            payload, account: key, accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
        guard try await vault.read(account: key) == payload else { throw MigrationError.readBackMismatch(key) }
        journal.record(key, .keychain, call, errSecSuccess, .written)
    } catch let failure as KeychainFailure {
        journal.record(key, .keychain, failure.operation, failure.status, .failed)
        throw .keychain(failure)
    } catch {
        throw .readBackMismatch(key)
    }
}
