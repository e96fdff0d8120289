import AppHarness
import Foundation
import LedgerRelease1
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Step 0 -> 1: the secret preference keys move into the keychain (``DefaultsToKeychainMover``);
/// the step throws when any key failed, so the version does not advance and the key is retried.
public struct MoveDefaultsStep: MigrationStep {
    public let from = 0
    let mover: DefaultsToKeychainMover
    let keys: [String]

    public init(mover: DefaultsToKeychainMover, keys: [String] = LedgerNames.legacyPreferenceKeys) {
        self.mover = mover
        self.keys = keys
    }

    public func run() async throws(MigrationError) {
        let report = await mover.move(keys: keys)
        let failures = keys.compactMap { key -> (String, OSStatus)? in
            if case .failed(let operation, let status) = report[key] { return (operation, status) }
            return nil
        }
        if let first = failures.first {
            throw .keysLeftBehind(failures.count, operation: first.0, status: first.1)
        }
    }
}

/// Step 1 -> 2: the NSKeyedArchiver session becomes a JSON ``SessionRecord`` in the keychain,
/// read back, and only then the archive file is removed. A corrupt archive fails the step and
/// stays where it is; it never crashes the app.
public struct MoveArchiveStep: MigrationStep {
    public let from = 1
    let vault: any MigrationKeychainProtocol
    let files: any AppFiles
    let archive: URL
    let journal: any LaunchJournal

    public init(
        vault: any MigrationKeychainProtocol, files: any AppFiles, applicationSupport: URL,
        journal: any LaunchJournal
    ) {
        self.vault = vault
        self.files = files
        archive = applicationSupport.appendingPathComponent(LedgerNames.sessionArchive)
        self.journal = journal
    }

    public func run() async throws(MigrationError) {
        guard files.fileExists(archive) else { return }
        let raw: Data
        do {
            raw = try files.read(archive)
        } catch {
            journal.record("session", .archive, "read", error.code, .kept)
            throw .file(error, operation: "read")
        }
        let old: LegacySession
        do {
            guard let decoded = try NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: raw) else {
                throw CocoaError(.coderReadCorrupt)
            }
            old = decoded
        } catch {
            journal.record("session", .archive, "NSKeyedUnarchiver", errSecDecode, .kept)
            throw .corruptArchive(status: errSecDecode)
        }
        let modern: Data
        do {
            modern = try SessionRecord(userID: old.userID, accessToken: old.token).encoded()
        } catch {
            throw .corruptArchive(status: errSecParam)
        }
        do {
            let call = try await vault.save(
                modern, account: LedgerNames.sessionAccount,
                accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
            guard try await vault.read(account: LedgerNames.sessionAccount) == modern else {
                journal.record("session", .keychain, "SecItemCopyMatching", errSecSuccess, .mismatch)
                throw MigrationError.readBackMismatch(LedgerNames.sessionAccount)
            }
            journal.record("session", .keychain, call, errSecSuccess, .written)
        } catch let failure as KeychainFailure {
            journal.record("session", .keychain, failure.operation, failure.status, .failed)
            throw .keychain(failure)
        } catch let error as MigrationError {
            throw error
        } catch {
            throw .readBackMismatch(LedgerNames.sessionAccount)
        }
        do {
            try files.remove(archive)
        } catch {
            journal.record("session", .archive, "remove", error.code, .kept)
            throw .file(error, operation: "remove")
        }
        journal.record("session", .archive, "remove", 0, .removed)
    }
}
