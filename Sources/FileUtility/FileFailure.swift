import Foundation

/// The cause of a failed file operation in the words `strerror` uses ("no space left on device",
/// "read-only file system"), read from Foundation's error or the POSIX error beneath it, so that
/// every I/O failure can be reported as one line: `no space left on device writing <file>`.
public enum FileFailure {
    /// The cause of `error`, lower-case, without the file's name.
    public static func cause(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return posix(Int32(error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return posix(Int32(underlying.code))
        }
        if error.domain == NSCocoaErrorDomain {
            switch error.code {
            case CocoaError.fileWriteOutOfSpace.rawValue: return posix(ENOSPC)
            case CocoaError.fileWriteVolumeReadOnly.rawValue: return posix(EROFS)
            case CocoaError.fileWriteNoPermission.rawValue, CocoaError.fileReadNoPermission.rawValue: return posix(EACCES)
            case CocoaError.fileNoSuchFile.rawValue, CocoaError.fileReadNoSuchFile.rawValue: return posix(ENOENT)
            case CocoaError.fileWriteFileExists.rawValue: return posix(EEXIST)
            default: break
            }
        }
        return error.localizedDescription
    }

    /// `strerror(code)` with its first letter lower-cased, to stand inside a sentence.
    public static func posix(_ code: Int32) -> String {
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// `<cause> <doing> <path>`: "no space left on device writing /out/gate.json".
    public static func line(_ error: any Error, _ doing: String, _ path: String) -> String {
        "\(cause(error)) \(doing) \(path)"
    }
}
