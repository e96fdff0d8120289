/// Bad input to the gate: a flag, a file or a folder that cannot be used as given. Every case has a
/// one-line description that names the flag, file or folder, and maps to exit code 2.
public enum GateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A flag's value cannot be used, such as `--shard 4/3`.
    case invalidValue(flag: String, value: String, reason: String)
    /// A build id that cannot name a path, such as an empty id or `none`.
    case invalidBuildID(String, reason: String)
    /// The plan holds no (path, scenario) to run.
    case nothingToRun(String)
    /// The output folder holds another run's files, or files that are not a run's, and `--force` was not given.
    case outputFolderInUse(folder: String, reason: String)
    /// A file that is needed is missing or unreadable.
    case unreadable(path: String, reason: String)
    /// A file exists but its content is not what it should be.
    case malformed(path: String, reason: String)
    /// A shard folder was made from other inputs than the first folder given to merge.
    case shardInputsDiffer(folder: String, expected: String, found: String)
    /// A shard folder does not fit the others (another shard count, or a shard given twice).
    case shardMismatch(folder: String, reason: String)
    /// A file could not be written.
    case unwritable(path: String, reason: String)

    /// The exit code for every gate input error: 2, bad usage or bad input.
    public var exitCode: Int32 { 2 }

    /// One line that names the flag, file or folder.
    public var description: String {
        switch self {
        case .invalidValue(let flag, let value, let reason): "\(flag): \"\(value)\" \(reason)"
        case .invalidBuildID(let id, let reason): "build id \"\(id)\": \(reason)"
        case .nothingToRun(let reason): "nothing to run: \(reason)"
        case .outputFolderInUse(let folder, let reason): "\(folder): \(reason); pass --force to replace it"
        case .unreadable(let path, let reason): "\(path): \(reason)"
        case .malformed(let path, let reason): "\(path): \(reason)"
        case .shardInputsDiffer(let folder, let expected, let found):
            "\(folder): made from other inputs than the first shard (inputs digest \(found.prefix(19)), expected \(expected.prefix(19)))"
        case .shardMismatch(let folder, let reason): "\(folder): \(reason)"
        case .unwritable(let path, let reason): "\(path): cannot write: \(reason)"
        }
    }
}
