import FileUtility
import Foundation
import SimPlatform

/// What a storage-pressure purge removed (``DeviceSession/purgeCaches()``): per container, the
/// folder it emptied and how many files and folders went. Names and counts only, never a value.
public struct CachePurge: Codable, Equatable, Sendable {
    /// One emptied folder of one container.
    public struct Emptied: Codable, Equatable, Sendable, Comparable {
        /// `data` (an app's data container) or `appGroup`.
        public var kind: String
        /// The bundle id or app group id.
        public var identifier: String
        /// `Library/Caches` or `tmp`, relative to the container.
        public var folder: String
        /// How many files (and links) went.
        public var files: Int
        /// How many folders below it went.
        public var folders: Int

        public static func < (lhs: Emptied, rhs: Emptied) -> Bool {
            (lhs.kind, lhs.identifier, lhs.folder) < (rhs.kind, rhs.identifier, rhs.folder)
        }
    }

    /// Every folder the purge looked at, emptied or already empty, sorted.
    public var emptied: [Emptied]

    /// Files removed in all.
    public var files: Int { emptied.reduce(0) { $0 + $1.files } }
}

extension DeviceSession {
    /// The folders iOS purges under storage pressure, per container kind: an app's `Library/Caches`
    /// and `tmp`, an app group container's `Library/Caches` (docs/device.md, "Storage pressure").
    public static func purgedFolders(_ kind: ContainerKind) -> [String] {
        switch kind {
        case .data: [AppContainers.cachesPath, AppContainers.tmpPath]
        case .appGroup: [AppContainers.cachesPath]
        case .bundle: []
        }
    }

    /// Storage pressure, as iOS answers it while no app of the device runs: the contents of every
    /// data container's `Library/Caches` and `tmp` and of every app group container's
    /// `Library/Caches` go; the folders themselves stay, with their data protection class. Nothing
    /// else changes: Documents, Library/Application Support, Library/Preferences, the keychain, the
    /// install records. An app runs only while a launch holds this session's device lock, so no
    /// app of the device is running when this runs (iOS spares a running app's caches).
    /// - Throws: ``DeviceError/fileSystem(_:reason:)`` when a file cannot be removed (what was
    ///   removed before it stays removed, as on iOS, where the purge is not a transaction).
    @discardableResult
    public func purgeCaches() throws(DeviceError) -> CachePurge {
        var emptied: [CachePurge.Emptied] = []
        defer { contentsChanged() }
        for kind in [ContainerKind.data, .appGroup] {
            for container in ContainerDirectory.all(kind, in: layout) {
                for folder in Self.purgedFolders(kind) {
                    let path = container.path + "/" + folder
                    var counts = (files: 0, folders: 0)
                    try Self.empty(path, counts: &counts)
                    emptied.append(
                        .init(
                            kind: kind.rawValue, identifier: container.identifier, folder: folder, files: counts.files,
                            folders: counts.folders))
                }
            }
        }
        HistoryEvent.append(HistoryEvent(event: "purge-caches", clock: record.clock), to: layout)
        return CachePurge(emptied: emptied.sorted())
    }

    /// Removes everything inside the folder at `path` (not the folder itself; nothing when it is
    /// not there), counting what went. Links are removed, never followed.
    private static func empty(_ path: String, counts: inout (files: Int, folders: Int)) throws(DeviceError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path).sorted() } catch {
            throw .fileSystem(path, reason: "cannot be listed (\(error.localizedDescription))")
        }
        for name in names {
            let child = path + "/" + name
            var info = stat()
            guard lstat(child, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                try empty(child, counts: &counts)
                guard rmdir(child) == 0 else {
                    throw .fileSystem(child, reason: "cannot be removed (\(FileFailure.posix(errno)))")
                }
                counts.folders += 1
            } else {
                guard unlink(child) == 0 else {
                    throw .fileSystem(child, reason: "cannot be removed (\(FileFailure.posix(errno)))")
                }
                counts.files += 1
            }
        }
    }
}
