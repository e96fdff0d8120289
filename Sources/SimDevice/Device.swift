import FileUtility
import Foundation
import SimRuntime
import SimSecurity

/// A simulated device as read from its folder: its record, its installed apps and its containers.
///
/// A `Device` only reads. Everything that changes a device goes through a ``DeviceSession``, which
/// holds the device's OS lock, so two runs can never change one device at once.
public struct Device: Sendable {
    public let layout: DeviceLayout
    /// The record as it was when the device was opened.
    public let record: DeviceRecord

    public var udid: String { record.udid }

    /// Opens the device in `layout.directory`.
    /// - Throws: a ``DeviceError`` naming `device.json` and the field when the record is missing or malformed.
    public init(layout: DeviceLayout) throws(DeviceError) {
        let record = try JSONFile.read(DeviceRecord.self, from: layout.recordPath, what: "device record")
        guard record.formatVersion <= DeviceRecord.currentFormatVersion else {
            throw .malformedFile(
                layout.recordPath,
                reason: "field \"formatVersion\" is \(record.formatVersion), newer than this "
                    + "upgrade-runner reads (\(DeviceRecord.currentFormatVersion)); use a newer upgrade-runner")
        }
        let folder = (layout.directory as NSString).lastPathComponent
        guard record.udid == folder else {
            throw .malformedFile(layout.recordPath, reason: "field \"udid\" is \"\(record.udid)\" but the folder is \(folder)")
        }
        self.layout = layout
        self.record = record
    }

    /// Takes the device for this run.
    /// - Throws: `device <UDID> is in use by pid N` when another run holds it.
    public func acquire() throws(DeviceError) -> DeviceSession {
        let lock = try DeviceLock(path: layout.lockFilePath, udid: udid)
        // Re-read under the lock: the record may have changed since this value was made.
        return DeviceSession(device: try Device(layout: layout), lock: lock)
    }

    /// The installed apps, sorted by bundle id.
    public func installedApps() -> [InstalledApp] {
        var latest: [String: InstalledApp] = [:]
        for container in ContainerDirectory.all(.bundle, in: layout) {
            guard let app = try? InstalledApp(container: container) else { continue }
            // Two bundle containers for one id only exist after an install was interrupted between
            // moving the new one into place and removing the old one: the newer install wins.
            if let other = latest[app.bundleID], other.record.sequence > app.record.sequence { continue }
            latest[app.bundleID] = app
        }
        return latest.values.sorted { $0.bundleID < $1.bundleID }
    }

    /// The installed app with this bundle id.
    public func installedApp(_ bundleID: String) throws(DeviceError) -> InstalledApp {
        guard let app = installedApps().first(where: { $0.bundleID == bundleID }) else {
            throw .notInstalled(bundleID: bundleID, udid: udid)
        }
        return app
    }

    /// The data container of `bundleID`, if the app has one.
    public func dataContainer(_ bundleID: String) -> Container? {
        ContainerDirectory.find(.data, identifier: bundleID, in: layout).first
    }

    /// The shared container of an app group, if one exists.
    public func groupContainer(_ groupID: String) -> Container? {
        ContainerDirectory.find(.appGroup, identifier: groupID, in: layout).first
    }

    /// The key of keyed digests in keychain dumps: random per device, kept outside `data/`, so that
    /// two dumps of one device compare equal without either showing a value.
    public func digestKey() throws(DeviceError) -> Data {
        guard let key = FileManager.default.contents(atPath: layout.digestKeyPath), key.count == 32 else {
            throw .malformedFile(layout.digestKeyPath, reason: "missing or not 32 bytes")
        }
        return key
    }

    /// Every keychain item on the device, whatever its access group or protection class.
    ///
    /// Each call opens the database and closes it again; a session reads through one connection
    /// it keeps (``DeviceSession/keychainItems()``).
    public func keychainItems() throws(DeviceError) -> [KeychainItemRecord] {
        try Self.items(of: try openKeychain(), path: layout.keychainPath)
    }

    /// The device's keychain opened as a host-side reader: the store as its apps open it, an open
    /// error reported by the caller, not on standard error.
    /// - Throws: ``DeviceError/missingFile(_:what:)`` when there is no database,
    ///   ``DeviceError/malformedFile(_:reason:)`` when it cannot be opened as a keychain.
    func openKeychain() throws(DeviceError) -> Keychain {
        guard FileManager.default.fileExists(atPath: layout.keychainPath) else {
            throw .missingFile(layout.keychainPath, what: "keychain database")
        }
        var configuration = Keychain.Configuration(storage: .file(layout.keychainPath), runtime: record.runtime)
        configuration.durability = .processKill  // a simulated device's store, as its apps open it
        configuration.reportsOpenError = false
        let keychain = Keychain(configuration)
        if let problem = keychain.openError {
            throw .malformedFile(layout.keychainPath, reason: "\(problem.reason) (\(SecurityStatus(problem.status)))")
        }
        return keychain
    }

    /// Every item of `keychain`, the database at `path`.
    static func items(of keychain: Keychain, path: String) throws(DeviceError) -> [KeychainItemRecord] {
        do {
            return try keychain.dump()
        } catch {
            throw .malformedFile(path, reason: "\(error)")
        }
    }

    // MARK: Building blocks shared by create and erase

    /// The empty `data/` tree: container folders and a fresh keychain database.
    static func makeSkeleton(_ layout: DeviceLayout) throws(DeviceError) {
        do {
            for kind in ContainerKind.allCases {
                try FileManager.default.createDirectory(
                    atPath: layout.containersDirectory(kind), withIntermediateDirectories: true)
            }
            try FileManager.default.createDirectory(atPath: layout.keychainDirectory, withIntermediateDirectories: true)
        } catch {
            throw .notWritable(layout.directory, reason: error.localizedDescription)
        }
        if let empty = emptyKeychainLock.withLock({ emptyKeychain }) {
            let failure = AtomicFile.writeInPlace(empty, to: layout.keychainPath)
            guard failure == 0 else {
                throw .fileSystem(layout.keychainPath, reason: "cannot be written (\(FileFailure.posix(failure)))")
            }
            // The keychain holds secrets in the clear: 0600, which SQLite gives its journal too.
            chmod(layout.keychainPath, 0o600)
            return
        }
        do {
            var configuration = Keychain.Configuration(storage: .file(layout.keychainPath))
            configuration.durability = .processKill
            let keychain = Keychain(configuration)
            if let problem = keychain.openError { throw DeviceError.fileSystem(layout.keychainPath, reason: "\(problem)") }
        }
        chmod(layout.keychainPath, 0o600)
        // Closed, the store is one file (its log checkpointed and removed): the next device's.
        let folder = try? FileManager.default.contentsOfDirectory(atPath: layout.keychainDirectory)
        if folder == [(layout.keychainPath as NSString).lastPathComponent],
            let bytes = FileManager.default.contents(atPath: layout.keychainPath)
        {
            emptyKeychainLock.withLock { emptyKeychain = emptyKeychain ?? bytes }
        }
    }

    /// An empty keychain database as the store creates it (schema, version row), kept from the
    /// first device this process made: every later device and erase gets these bytes in one write,
    /// not the same schema made again by a dozen SQL statements (a gate makes hundreds of devices).
    nonisolated(unsafe) private static var emptyKeychain: Data?
    private static let emptyKeychainLock = NSLock()

    static func writeDigestKey(_ layout: DeviceLayout) throws(DeviceError) {
        var generator = SystemRandomNumberGenerator()
        let key = Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let failure = AtomicFile.write(key, to: layout.digestKeyPath, mode: 0o600)
        guard failure == 0 else {
            throw .notWritable(layout.digestKeyPath, reason: "cannot create the digest key (\(FileFailure.posix(failure)))")
        }
    }

    /// Writes the one-word lock-state file that app processes read. A shut-down device reads as
    /// before first unlock, whatever the record says.
    static func writeLockStateFile(_ record: DeviceRecord, _ layout: DeviceLayout) throws(DeviceError) {
        let state: LockState = record.state == .booted ? record.lockState : .beforeFirstUnlock
        let text = Data((state.rawValue + "\n").utf8)
        // Launches call this too; an unchanged file is left alone (an atomic write costs a sync).
        if FileManager.default.contents(atPath: layout.lockStatePath) == text { return }
        let failure = AtomicFile.write(text, to: layout.lockStatePath)
        guard failure == 0 else {
            throw .fileSystem(layout.lockStatePath, reason: "cannot be written (\(FileFailure.posix(failure)))")
        }
    }
}
