import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Mutant `session-in-caches`: v2 whose step 1 -> 2 moves v1's archived session into
/// `Library/Caches/Session.json` (a ``SessionRecord``, read back, then the archive removed) instead
/// of the keychain. It reads back everywhere until iOS purges the caches folder under storage
/// pressure (and a backup leaves it behind), which signs the user out.
public enum SessionInCaches {
    /// The file the session is kept in, relative to the data container.
    public static let relativePath = "Library/Caches/Session.json"

    static func file(_ environment: AppEnvironment) -> URL { environment.home.appendingPathComponent(relativePath) }

    /// Its verify: v2's reads of the tokens and the device key; the session from the caches file,
    /// or from the keychain where v2 keeps it when there is no such file (a device that took v2's
    /// migration, or the build's own seed).
    public static func verify(_ launch: HarnessLaunch) {
        let secrets = launch.secrets
        for (account, expected) in [("authToken", secrets.authToken), ("refreshToken", secrets.refreshToken)] {
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: account)
            launch.recordRead(account, .keychain, "SecItemCopyMatching", status, actual: data, expected: Data(expected.utf8))
        }
        let url = file(launch.environment)
        let files = launch.environment.files
        if files.fileExists(url) {
            do {
                let data = try files.read(url)
                let session = try? JSONDecoder().decode(SessionRecord.self, from: data)
                let matches = session == LedgerAutomation.expectedSession(launch)
                launch.record(LedgerNames.sessionAccount, .json, "read", 0, matches ? .found : .mismatch)
            } catch {
                launch.record(LedgerNames.sessionAccount, .json, "read", error.code, error.code == EPERM ? .locked : .failed)
            }
        } else {
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: LedgerNames.sessionAccount)
            let session = data.flatMap { try? JSONDecoder().decode(SessionRecord.self, from: $0) }
            launch.record(
                LedgerNames.sessionAccount, .keychain, "SecItemCopyMatching", status,
                KeychainProbe.result(of: status, matches: session == LedgerAutomation.expectedSession(launch)))
        }
        LedgerAutomation.verifyDeviceKey(launch)
        LedgerAutomation.finish(launch)
    }

    /// Removes the caches file when it is there (before v2's cleanup of its keychain items).
    public static func removeFile(_ launch: HarnessLaunch) {
        let url = file(launch.environment)
        guard launch.environment.files.fileExists(url) else { return }
        do {
            try launch.environment.files.remove(url)
            launch.record(LedgerNames.sessionAccount, .json, "remove", 0, .removed)
        } catch {
            launch.record(LedgerNames.sessionAccount, .json, "remove", error.code, .failed)
        }
    }
}

/// Step 1 -> 2 of mutant `session-in-caches`: v1's archived session becomes a JSON
/// ``SessionRecord`` in `Library/Caches/Session.json`, read back, and only then is the archive
/// removed. Crash-safe and idempotent; its only fault is where it keeps the session.
public struct MoveArchiveToCachesStep: MigrationStep {
    public let from = 1
    let files: any AppFiles
    let archive: URL
    let destination: URL
    let journal: any LaunchJournal

    public init(_ parts: LedgerParts) {
        files = parts.environment.files
        archive = parts.environment.applicationSupport.appendingPathComponent(LedgerNames.sessionArchive)
        destination = SessionInCaches.file(parts.environment)
        journal = parts.journal
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
        guard let old = try? NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: raw) else {
            journal.record("session", .archive, "NSKeyedUnarchiver", errSecDecode, .kept)
            throw .corruptArchive(status: errSecDecode)
        }
        guard let modern = try? SessionRecord(userID: old.userID, accessToken: old.token).encoded() else {
            throw .corruptArchive(status: errSecParam)
        }
        do {
            try files.write(modern, to: destination)
            guard try files.read(destination) == modern else {
                journal.record("session", .json, "read", 0, .mismatch)
                throw MigrationError.readBackMismatch(LedgerNames.sessionAccount)
            }
            journal.record("session", .json, "write", 0, .written)
        } catch let error as AppFileError {
            journal.record("session", .json, "write", error.code, .failed)
            throw .file(error, operation: "write")
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
