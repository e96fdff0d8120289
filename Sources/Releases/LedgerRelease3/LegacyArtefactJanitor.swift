import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
import SimRuntime
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
            let call = try await vault.save(
                MigrationDate.encoded(now), account: LedgerNames.migratedAtAccount,
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
            MigrationDate.windowElapsed(since: stamp, now: now)
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

/// `vault.migratedAt`'s one format: the device clock when the migration completed, in ISO 8601 to
/// the second, as `ISO8601DateFormatter` writes it (``InternetDate``, without ICU's start-up cost).
public enum MigrationDate {
    /// The stored form of `date`.
    public static func encoded(_ date: Date) -> Data { Data(InternetDate.string(from: date).utf8) }

    /// The date `stamp` holds, or nil when it is not one.
    public static func decoded(_ stamp: Data) -> Date? { InternetDate.date(from: String(decoding: stamp, as: UTF8.self)) }

    /// Whether more than the rollback window (``LegacyArtefactJanitor/window``) has passed at `now`
    /// since the date `stamp` holds; false when it holds none.
    public static func windowElapsed(since stamp: Data, now: Date) -> Bool {
        decoded(stamp).map { now.timeIntervalSince($0) > LegacyArtefactJanitor.window } ?? false
    }
}
