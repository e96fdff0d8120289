import FileUtility
import Foundation
import SimRuntime

/// A data protection class, as `FileProtectionType` names them.
public enum FileProtection: String, Codable, Sendable, CaseIterable {
    /// Readable and writable only while the device is unlocked.
    case complete = "NSFileProtectionComplete"
    /// A new file can be created while locked; an existing one is read or written only while unlocked.
    case completeUnlessOpen = "NSFileProtectionCompleteUnlessOpen"
    /// Readable and writable once the device has been unlocked after boot (iOS's default).
    case completeUntilFirstUserAuthentication = "NSFileProtectionCompleteUntilFirstUserAuthentication"
    /// Always readable and writable.
    case none = "NSFileProtectionNone"

    /// The class of a file written without one.
    public static let `default` = FileProtection.completeUntilFirstUserAuthentication

    /// Whether a file of this class can be read in `state`.
    public func canRead(_ state: LockState) -> Bool {
        switch self {
        case .complete, .completeUnlessOpen: state.isProtectedDataAvailable
        case .completeUntilFirstUserAuthentication: state.hasBeenUnlockedSinceBoot
        case .none: true
        }
    }

    func canWrite(_ state: LockState, exists: Bool) -> Bool {
        self == .completeUnlessOpen && !exists ? true : canRead(state)
    }
}

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
/// iOS keeps a file's protection class in its metadata; here it is kept in a small registry per
/// container (`.com.upgrade-runner.dataprotection.plist` beside the container's metadata file),
/// written before the file itself, so a file never exists with a weaker class than it was given.
/// Writes and removals pass through the seam as `file.write` and `file.remove`; a write replaces the
/// file atomically (``AtomicFile``), so a kill leaves the old content or the new.
public final class ProtectedFiles: @unchecked Sendable {
    public static let registryName = ".com.upgrade-runner.dataprotection.plist"

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
    public func write(_ data: Data, to url: URL, protection: FileProtection = .default) throws(FileAccessError) {
        let (container, relative) = try locate(url, .fileWrite)
        let status = seam.perform(.fileWrite, SeamSubject(store: "file", name: relative)) {
            let exists = FileManager.default.fileExists(atPath: url.path)
            guard protection.canWrite(lockState.current, exists: exists) else { return EPERM }
            let folder = url.deletingLastPathComponent()
            if !FileManager.default.fileExists(atPath: folder.path) {
                guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else {
                    return EIO
                }
            }
            guard setRegistry(container, relative, protection) else { return EIO }
            return AtomicFile.write(data, to: url.path)
        }
        guard status == 0 else { throw FileAccessError(path: relative, operation: .fileWrite, code: status) }
    }

    /// Reads the file at `url`, if its protection class allows it now.
    public func read(_ url: URL) throws(FileAccessError) -> Data {
        let (container, relative) = try locate(url, nil)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw FileAccessError(path: relative, operation: nil, code: ENOENT)
        }
        guard protection(container, relative).canRead(lockState.current) else {
            throw FileAccessError(path: relative, operation: nil, code: EPERM)
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FileAccessError(path: relative, operation: nil, code: EIO)
        }
        return data
    }

    /// Removes the file at `url` (allowed whatever the lock state, as unlinking is on iOS).
    public func remove(_ url: URL) throws(FileAccessError) {
        let (container, relative) = try locate(url, .fileRemove)
        let status = seam.perform(.fileRemove, SeamSubject(store: "file", name: relative)) {
            guard FileManager.default.fileExists(atPath: url.path) else { return ENOENT }
            guard (try? FileManager.default.removeItem(at: url)) != nil else { return EIO }
            _ = setRegistry(container, relative, nil)
            return 0
        }
        guard status == 0 else { throw FileAccessError(path: relative, operation: .fileRemove, code: status) }
    }

    /// Whether a file exists at `url` (existence is visible whatever the lock state).
    public func fileExists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// The protection class of the file at `url`.
    public func protection(of url: URL) -> FileProtection {
        guard let (container, relative) = try? locate(url, nil) else { return .default }
        return protection(container, relative)
    }

    // MARK: The registry

    private func locate(_ url: URL, _ operation: StoreOperation?) throws(FileAccessError) -> (URL, String) {
        let path = url.standardizedFileURL.path
        for container in containers where path.hasPrefix(container.path + "/") {
            return (container, String(path.dropFirst(container.path.count + 1)))
        }
        throw FileAccessError(path: path, operation: operation, code: EACCES)
    }

    private func registryPath(_ container: URL) -> String { container.path + "/" + ProtectedFiles.registryName }

    private func registry(_ container: URL) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: registryPath(container)) else { return [:] }
        return ((try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: String]) ?? [:]
    }

    private func protection(_ container: URL, _ relative: String) -> FileProtection {
        registry(container)[relative].flatMap(FileProtection.init(rawValue:)) ?? .default
    }

    /// Records `protection` for `relative` (nil forgets it); unchanged entries cost no write.
    private func setRegistry(_ container: URL, _ relative: String, _ protection: FileProtection?) -> Bool {
        var entries = registry(container)
        let value = protection == .default ? nil : protection?.rawValue
        guard entries[relative] != value else { return true }
        entries[relative] = value
        guard let data = try? PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0) else {
            return false
        }
        return AtomicFile.write(data, to: registryPath(container)) == 0
    }
}
