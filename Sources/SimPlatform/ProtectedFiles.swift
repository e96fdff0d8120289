import FileUtility
import Foundation
import SimRuntime
import SimSupervision

/// A file operation the platform refused or that failed, with the POSIX error it answered.
public struct FileAccessError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var operation: StoreOperation?
    /// `EPERM` for data protection (as iOS answers while locked), `ENOENT`, `EACCES` outside the
    /// app's containers, `EIO`, or a status injected by the fault plan.
    public var code: Int32

    public init(path: String, operation: StoreOperation?, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String {
        let reason = code == EPERM ? "not permitted while protected data is unavailable" : String(cString: strerror(code))
        return "\(path): \(reason) (errno \(code))"
    }
}

/// Files in an app's containers with data protection.
///
/// A file's class is in its metadata (``FileProtection``), set before the file holds any byte, so
/// a file never exists with a weaker class than it was given. Writes and removals pass through the
/// seam as `file.write` and `file.remove`; a write replaces the file atomically (``AtomicFile``), so
/// a kill leaves the old content or the new.
public final class ProtectedFiles: @unchecked Sendable {
    private let containers: [URL]
    private let lockState: LockStateSource
    private let seam: Seam

    /// - Parameter containers: the folders the app may touch (its data container and group containers).
    public init(containers: [URL], lockState: LockStateSource, seam: Seam) {
        self.containers = containers.map(\.standardizedFileURL)
        self.lockState = lockState
        self.seam = seam
    }

    /// Writes `data` to `url` with `protection`, replacing the file atomically.
    /// - Parameter protection: the file's class; nil gives it its folder's, as iOS gives a file
    ///   created without one (the data container's folders carry the class of the build's
    ///   `com.apple.developer.default-data-protection` entitlement).
    public func write(_ data: Data, to url: URL, protection: FileProtection? = nil) throws(FileAccessError) {
        let relative = try locate(url, .fileWrite)
        let status = seam.perform(.fileWrite, SeamSubject(store: "file", name: relative)) {
            let exists = FileManager.default.fileExists(atPath: url.path)
            let folder = url.deletingLastPathComponent()
            let protection = protection ?? Self.nearestClass(of: folder.path)
            guard protection.canWrite(lockState.current, exists: exists) else { return EPERM }
            guard Self.makeFolders(folder.path) else { return EIO }
            // A file of the default class carries no class, as one Foundation creates in an unclassed folder.
            let stored: FileProtection? =
                protection == .default && FileProtection.stored(atPath: folder.path) == nil ? nil : protection
            return AtomicFile.write(data, to: url.path) { descriptor in
                stored.map { FileProtection.set($0, descriptor: descriptor) } ?? 0
            }
        }
        guard status == 0 else { throw FileAccessError(path: relative, operation: .fileWrite, code: status) }
    }

    /// Reads the file at `url`, if its protection class allows it now.
    public func read(_ url: URL) throws(FileAccessError) -> Data {
        let relative = try locate(url, nil)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FileAccessError(path: relative, operation: nil, code: ENOENT)
        }
        guard FileProtection.of(path: url.path).canRead(lockState.current) else {
            throw FileAccessError(path: relative, operation: nil, code: EPERM)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FileAccessError(path: relative, operation: nil, code: EIO)
        }
        return data
    }

    /// Removes the file at `url` (allowed whatever the lock state, as unlinking is on iOS).
    public func remove(_ url: URL) throws(FileAccessError) {
        let relative = try locate(url, .fileRemove)
        let status = seam.perform(.fileRemove, SeamSubject(store: "file", name: relative)) {
            guard FileManager.default.fileExists(atPath: url.path) else { return ENOENT }
            guard (try? FileManager.default.removeItem(at: url)) != nil else { return EIO }
            return 0
        }
        guard status == 0 else { throw FileAccessError(path: relative, operation: .fileRemove, code: status) }
    }

    /// Whether a file exists at `url` (existence is visible whatever the lock state).
    public func fileExists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// The protection class of the file at `url`.
    public func protection(of url: URL) -> FileProtection { FileProtection.of(path: url.path) }

    /// The class a new item in `folder` gets: that of the closest existing folder on its path
    /// (a folder this write makes takes its parent's, as iOS's folders do).
    private static func nearestClass(of folder: String) -> FileProtection {
        var path = folder
        while !FileManager.default.fileExists(atPath: path), path != "/" {
            path = (path as NSString).deletingLastPathComponent
        }
        return FileProtection.of(path: path)
    }

    /// Makes `folder` and its missing parents, each with its parent's class.
    private static func makeFolders(_ folder: String) -> Bool {
        if FileManager.default.fileExists(atPath: folder) { return true }
        let parent = (folder as NSString).deletingLastPathComponent
        guard parent != folder, makeFolders(parent) else { return false }
        guard mkdir(folder, 0o755) == 0 || errno == EEXIST else { return false }
        if let inherited = FileProtection.stored(atPath: parent) { _ = FileProtection.set(inherited, atPath: folder) }
        return true
    }

    private func locate(_ url: URL, _ operation: StoreOperation?) throws(FileAccessError) -> String {
        let path = url.standardizedFileURL.path
        for container in containers where path.hasPrefix(container.path + "/") {
            return String(path.dropFirst(container.path.count + 1))
        }
        throw FileAccessError(path: path, operation: operation, code: EACCES)
    }
}
