import FileUtility
import UpgradeContract

/// Bad input to the gate (a request's field, a file or a folder that cannot be used as given, exit
/// code 2), or a file system that failed the run (exit code 3). Every case has a one-line description
/// that names the field, file or folder; the command line names the flag that set a field instead.
public enum GateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A field's value cannot be used, such as a shard of `4/3`.
    case invalidValue(field: GateField, value: String, reason: String)
    /// A build id that cannot name a path, such as an empty id or `none`.
    case invalidBuildID(String, reason: String)
    /// The plan holds no (path, scenario) to run.
    case nothingToRun(String)
    /// The output folder is a file, is written by a live run, or holds files that are not a run's
    /// (`reason` says so, with `--force` advice only where `--force` helps).
    case outputFolderInUse(folder: String, reason: String)
    /// A file that is needed is missing or unreadable.
    case unreadable(path: String, reason: String)
    /// A file exists but its content is not what it should be.
    case malformed(path: String, reason: String)
    /// A shard folder was made from other inputs than the first folder given to merge.
    case shardInputsDiffer(folder: String, expected: String, found: String)
    /// A shard folder does not fit the others (another shard count, or a shard given twice).
    case shardMismatch(folder: String, reason: String)
    /// A file operation failed: `cause` as ``FileFailure`` words it, `doing` what was being done
    /// ("writing", "creating the folder").
    case io(path: String, doing: String, cause: String)

    /// True for an I/O failure, which leaves the run incomplete (exit code 3); every other case is bad
    /// usage or bad input (2). ``ExitStatus/report(_:)`` turns this into the exit code.
    public var isEnvironmentFailure: Bool {
        if case .io = self { return true }
        return false
    }

    /// The I/O failure of `error` while `doing` something to `path`.
    package static func io(_ error: any Error, _ doing: String, _ path: String) -> GateError {
        .io(path: path, doing: doing, cause: FileFailure.cause(error))
    }

    /// One line that names the field, file or folder.
    public var description: String {
        switch self {
        case .invalidValue(let field, let value, let reason): "\(field): \"\(value)\" \(reason)"
        case .invalidBuildID(let id, let reason): "build id \"\(id)\": \(reason)"
        case .nothingToRun(let reason): "nothing to run: \(reason)"
        case .outputFolderInUse(let folder, let reason): "\(folder): \(reason)"
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .malformed(let path, let reason): "\(path): \(reason)"
        case .shardInputsDiffer(let folder, let expected, let found):
            "\(folder): made from other inputs than the first shard (inputs digest \(found.prefix(19)), expected \(expected.prefix(19)))"
        case .shardMismatch(let folder, let reason): "\(folder): \(reason)"
        case .io(let path, let doing, let cause): "\(cause) \(doing) \(path)"
        }
    }
}
