import Foundation

/// Copies of regular files made in the kernel (`sendfile`), for the runner's device clones and
/// build stages: no bytes pass through the process.
public enum FileCopy {
    /// Copies the file at `source` to a new file at `destination` with the same permission bits.
    /// Returns the source's and the copy's `stat`; nil, with no copy left and `errno` saying why,
    /// when either file cannot be opened, read or written, or the source changed while it was
    /// copied.
    public static func copy(from source: String, to destination: String) -> (source: stat, copy: stat)? {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return nil }
        defer { close(input) }
        var before = stat()
        guard fstat(input, &before) == 0 else { return nil }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, before.st_mode & 0o7777)
        guard output >= 0 else { return nil }
        var failure: Int32 = 0
        var copied = 0
        while copied < Int(before.st_size) && failure == 0 {
            let step = sendfile(output, input, nil, Int(before.st_size) - copied)
            if step > 0 {
                copied += step
            } else if step == 0 {
                failure = EIO
            } else if errno != EINTR {
                failure = errno
            }
        }
        // The mode again, whatever the umask made of open's.
        if failure == 0 && fchmod(output, before.st_mode & 0o7777) != 0 { failure = errno }
        var after = stat(), copy = stat()
        if failure == 0 && (fstat(input, &after) != 0 || FileIdentity(after) != FileIdentity(before)) { failure = ESTALE }
        if failure == 0 && fstat(output, &copy) != 0 { failure = errno }
        if close(output) != 0 && failure == 0 { failure = errno }
        guard failure == 0 else {
            unlink(destination)
            errno = failure
            return nil
        }
        return (before, copy)
    }
}
