import FileUtility
import Foundation
import SimPlatform
import SimRuntime
import SimSecurity
import SimSupervision

/// `backup.json`, the manifest of a device backup (docs/device.md, "Backup and restore"): what was
/// backed up, from which device, and what was left out and why. Names only, never a value.
public struct BackupManifest: Codable, Equatable, Sendable {
    public static let fileName = "backup.json"
    /// The copied keychain: only the items that travel (``Keychain/travels(protectionClass:)``).
    public static let keychainFileName = "keychain.db"
    public static let currentFormatVersion = 1

    /// One container in the backup: its kind, identifier and folder in the backup.
    public struct BackedUpContainer: Codable, Equatable, Sendable {
        /// `data` (an app's data container) or `appGroup`.
        public var kind: String
        /// The bundle id or app group id.
        public var identifier: String
        /// `apps/<bundle id>` or `groups/<group id>`, relative to the backup folder.
        public var folder: String
    }

    /// An installed app at backup time, for people: a restore installs nothing (as on iOS, where the
    /// App Store brings the current release back).
    public struct BackedUpApp: Codable, Equatable, Sendable {
        public var bundleID: String
        public var buildID: String
        public var buildNumber: String
    }

    /// A file or folder that stayed behind, and why (`caches`, `tmp`, `excluded-from-backup`).
    public struct LeftOut: Codable, Equatable, Sendable, Comparable {
        public var path: String
        public var reason: String
        public static func < (lhs: LeftOut, rhs: LeftOut) -> Bool { (lhs.path, lhs.reason) < (rhs.path, rhs.reason) }
    }

    public var formatVersion: Int
    /// The device the backup was made of: a restore onto it is refused (a restore here is onto
    /// another device, with its own identity).
    public var sourceUDID: String
    public var runtime: RuntimeVersion
    /// The device clock when the backup was made.
    public var clock: Date
    public var apps: [BackedUpApp]
    public var containers: [BackedUpContainer]
    /// How many keychain items travelled, and how many stayed behind (ThisDeviceOnly classes).
    public var keychainItems: Int
    public var keychainItemsLeftBehind: Int
    public var leftOut: [LeftOut]
    /// The data protection class of each copied file and folder that carries one, by its path in the
    /// backup (a container's own folder under its ``BackedUpContainer/folder``): a restore gives it back.
    public var protection: [String: FileProtection]
}

extension DeviceSession {
    /// Backs the device up into the new folder `folder`, as an encrypted iOS backup takes an app's
    /// data to another device:
    /// - keychain items of every class but the ThisDeviceOnly ones (synchronizable or not), into
    ///   `keychain.db` (the device keychain's schema);
    /// - each app's data container but `Library/Caches`, `tmp` and whatever is marked excluded from
    ///   backup (``BackupExclusion``), into `apps/<bundle id>/` (Documents, Library/Application
    ///   Support, Library/Preferences go);
    /// - each app group container but its `Library/Caches`, `tmp` and excluded files, into `groups/<group id>/`;
    /// - `backup.json` (``BackupManifest``).
    ///
    /// The backup holds secrets: its folders are made 0700 and its files 0600. It is assembled under
    /// a hidden name beside `folder` and moved into place with one rename, so a failed backup leaves nothing.
    /// - Throws: ``DeviceError/notWritable(_:reason:)`` when `folder` exists or its parent cannot be
    ///   written (bad input), ``DeviceError/fileSystem(_:reason:)`` when a copy fails.
    @discardableResult
    public func backup(to folder: String) throws(DeviceError) -> BackupManifest {
        let parent = (folder as NSString).deletingLastPathComponent
        guard !FileManager.default.fileExists(atPath: folder) else {
            throw .notWritable(folder, reason: "it exists; a backup goes to a new folder")
        }
        guard access(parent.isEmpty ? "." : parent, W_OK | X_OK) == 0 else {
            throw .notWritable(parent.isEmpty ? "." : parent, reason: "cannot create the backup folder in it")
        }
        let staging = (parent.isEmpty ? "." : parent) + "/.backup-" + UUID().uuidString
        do throws(DeviceError) {
            let manifest = try writeBackup(into: staging)
            guard rename(staging, folder) == 0 else {
                throw DeviceError.fileSystem(folder, reason: "cannot move the backup into place (\(FileFailure.posix(errno)))")
            }
            return manifest
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    private func writeBackup(into staging: String) throws(DeviceError) -> BackupManifest {
        try BackupFiles.makeFolder(staging)
        // The keychain: every item of a class that travels, into a database of the device's schema.
        var counts = (kept: 0, all: 0)
        do {
            let source = try device.openKeychain()
            let copy = try BackupFiles.keychain(at: staging + "/" + BackupManifest.keychainFileName)
            counts.all = try source.dump().count
            counts.kept = try source.copyItems(into: copy) { Keychain.travels(protectionClass: $0.accessible) ?? false }
        } catch let error as DeviceError {
            throw error
        } catch {
            throw .fileSystem(layout.keychainPath, reason: "cannot copy the keychain (\(error))")
        }
        try BackupFiles.restrict(staging + "/" + BackupManifest.keychainFileName)

        var containers: [BackupManifest.BackedUpContainer] = []
        var leftOut: [BackupManifest.LeftOut] = []
        var protection: [String: FileProtection] = [:]
        for (kind, prefix) in [(ContainerKind.data, "apps"), (.appGroup, "groups")] {
            for container in ContainerDirectory.all(kind, in: layout) {
                // Two containers of one identifier exist only after an interrupted install: the first wins.
                if containers.contains(where: { $0.kind == kind.rawValue && $0.identifier == container.identifier }) { continue }
                let folder = prefix + "/" + container.identifier
                try BackupFiles.makeFolder(staging + "/" + prefix)
                try BackupFiles.copyContainer(
                    container.path, to: staging + "/" + folder, as: folder, leftOut: &leftOut, protection: &protection)
                containers.append(.init(kind: kind.rawValue, identifier: container.identifier, folder: folder))
            }
        }
        let apps = installedApps().map {
            BackupManifest.BackedUpApp(bundleID: $0.bundleID, buildID: $0.record.buildID, buildNumber: $0.record.buildNumber)
        }
        let manifest = BackupManifest(
            formatVersion: BackupManifest.currentFormatVersion, sourceUDID: udid, runtime: record.runtime,
            clock: record.clock, apps: apps, containers: containers, keychainItems: counts.kept,
            keychainItemsLeftBehind: counts.all - counts.kept, leftOut: leftOut.sorted(), protection: protection)
        let path = staging + "/" + BackupManifest.fileName
        var data: Data
        do { data = try JSONFile.encoder.encode(manifest) } catch {
            throw .fileSystem(path, reason: "cannot be encoded (\(error))")
        }
        data.append(0x0A)
        let failure = AtomicFile.write(data, to: path, mode: 0o600)
        guard failure == 0 else { throw .fileSystem(path, reason: "cannot be written (\(FileFailure.posix(failure)))") }
        return manifest
    }

    /// Restores the backup in `folder` (``backup(to:)``) onto this device, which must be new or
    /// erased (no app, no container, no keychain item), as iOS restores only while a device is set
    /// up. The device keeps its own identity (UDID, digest key): a restore here is always onto
    /// another device than the backup's, so ThisDeviceOnly items, never in a backup, stay behind.
    /// Containers come back under new UUIDs with their files' protection classes; no app is
    /// installed (install the release the App Store would bring: its install finds its data container).
    ///
    /// All or nothing: the containers are assembled in the staging folder, moved into place, and
    /// the keychain items added in one transaction; a failure removes what was moved.
    /// - Throws: ``DeviceError/missingFile(_:what:)`` or ``DeviceError/malformedFile(_:reason:)``
    ///   for a folder that is no backup, ``DeviceError/restoreRefused(udid:reason:)`` for a device that
    ///   is not empty or is the backup's own, ``DeviceError/fileSystem(_:reason:)`` when a copy fails.
    @discardableResult
    public func restore(from folder: String) throws(DeviceError) -> BackupManifest {
        let manifestPath = folder + "/" + BackupManifest.fileName
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .missingFile(folder, what: "backup folder")
        }
        let manifest = try JSONFile.read(BackupManifest.self, from: manifestPath, what: "backup manifest")
        guard manifest.formatVersion <= BackupManifest.currentFormatVersion else {
            throw .malformedFile(
                manifestPath,
                reason: "field \"formatVersion\" is \(manifest.formatVersion), newer than this upgrade-runner reads "
                    + "(\(BackupManifest.currentFormatVersion))")
        }
        let keychainPath = folder + "/" + BackupManifest.keychainFileName
        guard FileManager.default.fileExists(atPath: keychainPath) else {
            throw .missingFile(keychainPath, what: "backup keychain")
        }
        for container in manifest.containers {
            guard ContainerKind(rawValue: container.kind) == .data || ContainerKind(rawValue: container.kind) == .appGroup,
                !container.folder.contains(".."), !container.identifier.contains("/")
            else {
                throw .malformedFile(
                    manifestPath, reason: "field \"containers\" names \"\(container.folder)\", not a container of a backup")
            }
        }
        if manifest.sourceUDID == udid {
            throw .restoreRefused(
                udid: udid, reason: "it is the device the backup was made of; restore onto another device (a new one)")
        }
        let apps = installedApps().count
        let containerCount = ContainerKind.allCases.map { ContainerDirectory.all($0, in: layout).count }.reduce(0, +)
        let items = try keychainItems().count
        if apps + containerCount + items > 0 {
            throw .restoreRefused(
                udid: udid,
                reason: "it is not empty (\(apps) app(s), \(containerCount) container(s), \(items) keychain item(s)); "
                    + "restore onto a new or erased device (upgrade-runner device erase)")
        }

        containersChanged()
        defer { containersChanged() }
        let staging = layout.stagingDirectory + "/restore-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: staging) }
        var staged: [(from: String, to: String)] = []
        for backedUp in manifest.containers {
            let kind = ContainerKind(rawValue: backedUp.kind)!
            let uuid = UUID().uuidString
            let path = staging + "/" + uuid
            let container = try ContainerDirectory.create(kind, identifier: backedUp.identifier, uuid: uuid, at: path)
            try BackupFiles.restoreContainer(
                from: folder + "/" + backedUp.folder, to: container.path, as: backedUp.folder, manifest.protection)
            staged.append((path, layout.containersDirectory(kind) + "/" + uuid))
        }
        var moved: [String] = []
        do {
            for (from, to) in staged {
                guard rename(from, to) == 0 else {
                    throw DeviceError.fileSystem(
                        to, reason: "cannot move the restored container into place (\(FileFailure.posix(errno)))")
                }
                moved.append(to)
            }
            do {
                var configuration = Keychain.Configuration(storage: .file(keychainPath), runtime: manifest.runtime)
                configuration.reportsOpenError = false
                let source = Keychain(configuration)
                if let problem = source.openError {
                    throw DeviceError.malformedFile(keychainPath, reason: "\(problem.reason) (\(SecurityStatus(problem.status)))")
                }
                try source.copyItems(into: try device.openKeychain()) {
                    Keychain.travels(protectionClass: $0.accessible) ?? false
                }
            } catch let error as DeviceError {
                throw error
            } catch {
                throw DeviceError.fileSystem(layout.keychainPath, reason: "cannot restore the keychain (\(error))")
            }
        } catch {
            for path in moved { try? FileManager.default.removeItem(atPath: path) }
            throw (error as? DeviceError) ?? .fileSystem(layout.directory, reason: "\(error)")
        }
        HistoryEvent.append(HistoryEvent(event: "restore", clock: record.clock), to: layout)
        return manifest
    }
}

/// The file operations of a backup and a restore.
enum BackupFiles {
    /// A folder of the backup, readable by its owner only.
    static func makeFolder(_ path: String) throws(DeviceError) {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw .fileSystem(path, reason: "cannot make the folder (\(FileFailure.posix(errno)))")
        }
        guard chmod(path, 0o700) == 0 else {
            throw .fileSystem(path, reason: "cannot restrict the folder (\(FileFailure.posix(errno)))")
        }
    }

    /// A file of the backup, readable and writable by its owner only.
    static func restrict(_ path: String) throws(DeviceError) {
        guard chmod(path, 0o600) == 0 else {
            throw .fileSystem(path, reason: "cannot restrict the file (\(FileFailure.posix(errno)))")
        }
    }

    /// A new keychain database at `path`, created 0600 before SQLite opens it.
    static func keychain(at path: String) throws(DeviceError) -> Keychain {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .fileSystem(path, reason: "cannot be created (\(FileFailure.posix(errno)))") }
        close(fd)
        var configuration = Keychain.Configuration(storage: .file(path))
        configuration.reportsOpenError = false
        let keychain = Keychain(configuration)
        if let problem = keychain.openError { throw .fileSystem(path, reason: "\(problem)") }
        return keychain
    }

    /// Copies what travels of the container at `source` to `destination` (`name`: its folder in
    /// the backup, for ``BackupManifest/leftOut`` and ``BackupManifest/protection``).
    static func copyContainer(
        _ source: String, to destination: String, as name: String, leftOut: inout [BackupManifest.LeftOut],
        protection: inout [String: FileProtection]
    ) throws(DeviceError) {
        try makeFolder(destination)
        if let stored = FileProtection.stored(atPath: source) { protection[name] = stored }
        let skipped = [AppContainers.cachesPath: "caches", AppContainers.tmpPath: "tmp"]
        try TreeCopy.copy(
            from: source, to: destination, pruning: Set(skipped.keys), folderMode: 0o700,
            choose: { entry in
                if entry.relative == ContainerDirectory.metadataFileName { return .leaveOut }
                let reason =
                    skipped[entry.relative]
                    ?? (BackupExclusion.isExcluded(atPath: source + "/" + entry.relative) ? "excluded-from-backup" : nil)
                guard let reason else { return .copy }
                leftOut.append(.init(path: name + "/" + entry.relative, reason: reason))
                return .leaveOut
            },
            placed: { entry, from, to throws(DeviceError) in
                if entry.kind == .file { try restrict(to) }
                if let stored = FileProtection.stored(atPath: from) { protection[name + "/" + entry.relative] = stored }
            })
    }

    /// Copies a backed-up container's files from `source` into the new container `destination`
    /// (its standard folders made), giving each its recorded protection class.
    static func restoreContainer(
        from source: String, to destination: String, as name: String, _ protection: [String: FileProtection]
    ) throws(DeviceError) {
        func classify(_ path: String, _ key: String) throws(DeviceError) {
            guard let stored = protection[key] else { return }
            let failure = FileProtection.set(stored, atPath: path)
            guard failure == 0 else {
                throw .fileSystem(path, reason: "cannot keep its data protection class (\(FileFailure.posix(failure)))")
            }
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue else {
            throw .missingFile(source, what: "backed-up container")
        }
        try classify(destination, name)
        try TreeCopy.copy(
            from: source, to: destination, folderMode: 0o755,
            placed: { entry, _, to throws(DeviceError) in
                if entry.kind == .file, chmod(to, 0o644) != 0 {
                    throw .fileSystem(to, reason: "cannot restore the file's mode (\(FileFailure.posix(errno)))")
                }
                try classify(to, name + "/" + entry.relative)
            })
    }
}
