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
        let url = file(launch.environment)
        SessionFileVerify.verify(launch, sessionFile: launch.environment.files.fileExists(url) ? url : nil)
    }

    /// Removes the caches file when it is there (before v2's cleanup of its keychain items).
    public static func removeFile(_ launch: HarnessLaunch) { SessionFileVerify.remove(file(launch.environment), launch) }
}

/// Mutant `stored-container-path`: v2 whose step 1 -> 2 moves v1's archived session into
/// `Library/Application Support/Session.json` and keeps the file's absolute path in the preferences;
/// its verify reads the session by that path. Every launch on the device that migrated reads it back;
/// once iOS moves the data container (an update installed over it, a backup restored onto a new
/// phone) the stored path points nowhere and the user is signed out.
public enum StoredContainerPath {
    /// The file the session is kept in, relative to the data container.
    public static let relativePath = "Library/Application Support/Session.json"
    /// The preference that holds the file's absolute path.
    public static let pathKey = "vault.sessionFilePath"

    static func file(_ environment: AppEnvironment) -> URL { environment.home.appendingPathComponent(relativePath) }

    /// Its verify: v2's reads of the tokens and the device key; the session from the file the stored
    /// path names (missing when nothing is there), else from the keychain where v2 keeps it.
    public static func verify(_ launch: HarnessLaunch) {
        let stored = launch.environment.defaults.string(forKey: pathKey).map { URL(fileURLWithPath: $0) }
        SessionFileVerify.verify(launch, sessionFile: stored)
    }

    /// Removes the session file (where the container is now) and the stored path.
    public static func removeFile(_ launch: HarnessLaunch) {
        SessionFileVerify.remove(file(launch.environment), launch)
        launch.environment.defaults.removeObject(forKey: pathKey)
    }
}

/// The verify and cleanup the mutants that keep v2's session in a JSON file share.
enum SessionFileVerify {
    /// v2's reads of the tokens and the device key, and the session from `sessionFile` (missing when
    /// no file is there), or from the keychain when `sessionFile` is nil.
    static func verify(_ launch: HarnessLaunch, sessionFile: URL?) {
        let secrets = launch.secrets
        for (account, expected) in [("authToken", secrets.authToken), ("refreshToken", secrets.refreshToken)] {
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: account)
            launch.recordRead(account, .keychain, "SecItemCopyMatching", status, actual: data, expected: Data(expected.utf8))
        }
        let files = launch.environment.files
        if let url = sessionFile {
            if !files.fileExists(url) {
                launch.record(LedgerNames.sessionAccount, .json, "read", ENOENT, .missing)
            } else {
                do {
                    let data = try files.read(url)
                    let session = try? JSONDecoder().decode(SessionRecord.self, from: data)
                    let matches = session == LedgerAutomation.expectedSession(launch)
                    launch.record(LedgerNames.sessionAccount, .json, "read", 0, matches ? .found : .mismatch)
                } catch {
                    launch.record(LedgerNames.sessionAccount, .json, "read", error.code, error.code == EPERM ? .locked : .failed)
                }
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

    /// Removes `url` when it is there.
    static func remove(_ url: URL, _ launch: HarnessLaunch) {
        guard launch.environment.files.fileExists(url) else { return }
        do {
            try launch.environment.files.remove(url)
            launch.record(LedgerNames.sessionAccount, .json, "remove", 0, .removed)
        } catch {
            launch.record(LedgerNames.sessionAccount, .json, "remove", error.code, .failed)
        }
    }
}

/// Step 1 -> 2 of mutants `session-in-caches` and `stored-container-path`: v1's archived session
/// becomes a JSON ``SessionRecord`` in a file of the data container, read back, and only then is the
/// archive removed. Crash-safe and idempotent; its only fault is where it keeps the session
/// (`Library/Caches`), or how it finds it again (an absolute path kept in the preferences).
public struct MoveArchiveToFileStep: MigrationStep {
    public let from = 1
    let files: any AppFiles
    let defaults: any AppDefaults
    let archive: URL
    let destination: URL
    /// The preference key the file's absolute path is kept under once written, if any.
    let pathKey: String?
    let journal: any LaunchJournal

    /// Into `Library/Caches/Session.json` (`session-in-caches`).
    public init(_ parts: LedgerParts) {
        self.init(parts, destination: SessionInCaches.file(parts.environment), pathKey: nil)
    }

    public init(_ parts: LedgerParts, destination: URL, pathKey: String?) {
        files = parts.environment.files
        defaults = parts.environment.defaults
        archive = parts.environment.applicationSupport.appendingPathComponent(LedgerNames.sessionArchive)
        self.destination = destination
        self.pathKey = pathKey
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
            if let pathKey { defaults.set(destination.path, forKey: pathKey) }
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
