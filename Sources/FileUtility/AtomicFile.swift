import Foundation

/// Replaces a file's contents in one step: write a temporary file beside it, then `rename(2)`.
///
/// A process killed at any instant (the crash model of crash points) leaves the old contents or
/// the new, never a mix. Unlike `Data.write(options: .atomic)` it does not `fsync`: the simulated
/// device has no power loss to survive, and a sync per app write would dominate a launch's cost.
/// (Foundation's `Data.write` syncs even without `.atomic`, so device files are written here.)
public enum AtomicFile {
    /// Writes `data` to `path` with permissions `mode`; returns the `errno` of the step that
    /// failed, or 0.
    /// - Parameter prepare: runs on the new file's descriptor before any byte is written (to give
    ///   it metadata such as its data protection class, so it never holds the data without it);
    ///   a non-zero answer is the errno that ends the write.
    public static func write(
        _ data: Data, to path: String, mode: mode_t = 0o644, prepare: ((Int32) -> Int32)? = nil
    ) -> Int32 {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: .min ... .max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { return errno }
        if let prepare {
            let failure = prepare(fd)
            if failure != 0 {
                close(fd)
                unlink(temporary)
                return failure
            }
        }
        let failure = writeAll(data, to: fd)
        if failure == 0, rename(temporary, path) != 0 { let code = errno; unlink(temporary); return code }
        if failure != 0 { unlink(temporary) }
        return failure
    }

    /// Writes `data` over `path` in place (created or truncated), without a sync: for files that
    /// no reader takes while they are written (a launch's log and status copies).
    public static func writeInPlace(_ data: Data, to path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return errno }
        return writeAll(data, to: fd)
    }

    /// Writes all of `data` to `fd` and closes it; the `errno` of a failure, or 0.
    private static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if close(fd) != 0, failure == 0 { failure = errno }
        return failure
    }
}
