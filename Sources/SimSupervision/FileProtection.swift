internal import CFileSupervisor
import Foundation
import SimRuntime

/// A data protection class, as `FileProtectionType` names them.
///
/// A file keeps its class in its metadata, as on iOS: the extended attribute
/// `user.upgrade-runner.protection-class`, which follows the file through renames and links and goes
/// with it. A file or folder without it has the ``default`` class. A new file or folder takes its
/// folder's class (the installer gives a new data container the class of the build's
/// `com.apple.developer.default-data-protection` entitlement); docs/device.md, "Data protection".
public enum FileProtection: String, Codable, Sendable, CaseIterable {
    /// Readable and writable only while the device is unlocked.
    case complete = "NSFileProtectionComplete"
    /// A new file can be created while locked; an existing one is read or written only while unlocked.
    case completeUnlessOpen = "NSFileProtectionCompleteUnlessOpen"
    /// Readable and writable once the device has been unlocked after boot (iOS's default).
    case completeUntilFirstUserAuthentication = "NSFileProtectionCompleteUntilFirstUserAuthentication"
    /// Always readable and writable.
    case none = "NSFileProtectionNone"

    /// The class of a file written without one, in a folder without one.
    public static let `default` = FileProtection.completeUntilFirstUserAuthentication

    /// Whether a file of this class can be read in `state`.
    public func canRead(_ state: LockState) -> Bool {
        switch self {
        case .complete, .completeUnlessOpen: state.isProtectedDataAvailable
        case .completeUntilFirstUserAuthentication: state.hasBeenUnlockedSinceBoot
        case .none: true
        }
    }

    /// Whether a file of this class can be opened for writing in `state`; `exists` false for one
    /// the call creates (a complete-unless-open file can be created while locked).
    public func canWrite(_ state: LockState, exists: Bool) -> Bool {
        self == .completeUnlessOpen && !exists ? true : canRead(state)
    }

    /// The class the file or folder at `path` carries, nil when it carries none (or is not there).
    public static func stored(atPath path: String) -> FileProtection? {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = buffer.withUnsafeMutableBufferPointer { cfs_protection_get(path, $0.baseAddress, $0.count) }
        guard length > 0 else { return nil }
        return FileProtection(rawValue: String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// The class of the file or folder at `path`: the one it carries, else the default.
    public static func of(path: String) -> FileProtection { stored(atPath: path) ?? .default }

    /// Gives the file or folder at `path` the class `protection`; returns 0 or the errno
    /// (`EOPNOTSUPP` on a file system without extended attributes). Not optional: `.none` is a class.
    public static func set(_ protection: FileProtection, atPath path: String) -> Int32 {
        cfs_protection_set(path, -1, protection.rawValue)
    }

    /// Gives the open file `descriptor` the class `protection`; returns 0 or the errno.
    public static func set(_ protection: FileProtection, descriptor: Int32) -> Int32 {
        cfs_protection_set(nil, descriptor, protection.rawValue)
    }
}
