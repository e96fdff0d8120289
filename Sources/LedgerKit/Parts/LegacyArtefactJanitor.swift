import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Seed 000's rollback window: non-secret legacy artefacts stay for 30 days after the migration,
/// whose date lives in the keychain (`vault.migratedAt`, ISO 8601 of the device clock), and go after.
///
/// Unlike the seed's sketch it does not remove the whole preferences domain: that would take the
/// reinstall marker with it, and the next launch would sweep the keychain and sign the user out.
public actor LegacyArtefactJanitor {
    /// The window, 30 days.
    public static let window: TimeInterval = 30 * 24 * 60 * 60
    private let vault: any MigrationKeychainProtocol
    private let files: any AppFiles
    private let documents: URL
    private let journal: any LaunchJournal

    public init(vault: any MigrationKeychainProtocol, files: any AppFiles, documents: URL, journal: any LaunchJournal) {
        self.vault = vault
        self.files = files
        self.documents = documents
        self.journal = journal
    }

    /// Records the migration date unless one is stored; a stored date is never moved forward.
    public func stampIfNeeded(now: Date) async {
        do {
            guard try await vault.read(account: LedgerNames.migratedAtAccount) == nil else { return }
            let stamp = ISO8601DateFormatter().string(from: now)
            let call = try await vault.save(
                Data(stamp.utf8), account: LedgerNames.migratedAtAccount,
                accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
            journal.record(LedgerNames.migratedAtAccount, .keychain, call, errSecSuccess, .written)
        } catch {
            journal.record(LedgerNames.migratedAtAccount, .keychain, error.operation, error.status, .failed)
        }
    }

    /// Removes the artefacts once more than the window has passed since the stored date.
    /// - Returns: whether the window had elapsed.
    @discardableResult
    public func sweepIfWindowElapsed(now: Date) async -> Bool {
        guard let stamp = try? await vault.read(account: LedgerNames.migratedAtAccount),
            let migratedAt = ISO8601DateFormatter().date(from: String(decoding: stamp, as: UTF8.self)),
            now.timeIntervalSince(migratedAt) > Self.window
        else { return false }
        for name in LedgerNames.legacyArtefacts {
            let file = documents.appendingPathComponent(name)
            guard files.fileExists(file) else { continue }
            do {
                try files.remove(file)
                journal.record(name, .file, "remove", 0, .removed)
            } catch {
                journal.record(name, .file, "remove", error.code, .kept)
            }
        }
        return true
    }
}
