import FileUtility
import Foundation

/// A new file that never exists empty: written and `flock`ed while it has no name (Linux's
/// `O_TMPFILE`), then linked in under its name. A process killed on the way leaves nothing, where
/// `open(O_CREAT)` then `write` left an empty file that proves nothing (an owner's marker with no
/// identity line, which no later start may take). Where the file system (or a missing `/proc`)
/// cannot make unnamed files, it is made in place, locked, then written: there a kill between the
/// two still leaves it empty.
enum WholeLockedFile {
    enum Outcome {
        /// The file is in place, whole, and this descriptor holds its exclusive lock.
        case made(Int32)
        /// Something of that name exists already.
        case exists
        /// The folder it was to go into is gone.
        case folderGone
        case failed(Int32)
    }

    /// `O_TMPFILE` (Linux's `__O_TMPFILE | O_DIRECTORY`, one number on x86_64 and arm64); Glibc's
    /// macro does not come through to Swift.
    private static let unnamed: Int32 = 0o20_000_000 | O_DIRECTORY

    /// Makes `path` holding `bytes`, mode `mode` (less the umask), locked by the returned descriptor.
    static func create(_ path: String, bytes: [UInt8], mode: mode_t) -> Outcome {
        let folder = (path as NSString).deletingLastPathComponent
        let descriptor = open(folder.isEmpty ? "." : folder, unnamed | O_RDWR | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return .folderGone
            case EOPNOTSUPP, EISDIR, EINVAL: return inPlace(path, bytes: bytes, mode: mode)
            case let failure: return .failed(failure)
            }
        }
        if let failure = lockAndWrite(descriptor, bytes) { return .failed(failure) }
        // Linked through /proc: `linkat` with AT_EMPTY_PATH needs a capability an ordinary user lacks.
        if linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0 { return .made(descriptor) }
        let failure = errno
        close(descriptor)
        if failure == EEXIST { return .exists }
        if access(folder.isEmpty ? "." : folder, F_OK) != 0 { return .folderGone }
        return failure == ENOENT || failure == EXDEV || failure == EPERM
            ? inPlace(path, bytes: bytes, mode: mode) : .failed(failure)
    }

    /// Without unnamed files: created (never through a link), locked, written.
    static func inPlace(_ path: String, bytes: [UInt8], mode: mode_t) -> Outcome {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            switch errno {
            case EEXIST: return .exists
            case ENOENT: return .folderGone
            case let failure: return .failed(failure)
            }
        }
        if let failure = lockAndWrite(descriptor, bytes) {
            unlink(path)
            return .failed(failure)
        }
        return .made(descriptor)
    }

    /// Takes the lock and writes `bytes`; on failure closes `descriptor` and answers the errno.
    private static func lockAndWrite(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32? {
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0,
            bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count
        else {
            let failure = errno
            close(descriptor)
            return failure
        }
        return nil
    }
}
