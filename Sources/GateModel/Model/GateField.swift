/// The field of a gate's request that a ``GateError`` names (`builds`, `caseID`): a Swift caller
/// reads the field it set. The command line reports the same error with the flag that set the field
/// instead (`--builds`, `--case-id`: `ExitStatus.report` in UpgradeRunner, the one place that maps
/// one to the other).
public enum GateField: Hashable, Sendable, CustomStringConvertible {
    case builds, routes, release, scenarios, shard, runtimes, caseID, jobs, timeout, out, inputSet
    /// The shard folders a merge is given.
    case shardFolders
    /// A value that is no request's field (an environment variable, a secret of the leak scan), or a
    /// flag the command line named itself: reported as it is named here.
    case named(String)

    /// The field's name in ``GateRequest``-like terms (`caseID`), or the name given.
    public var description: String {
        switch self {
        case .builds: "builds"
        case .routes: "routes"
        case .release: "release"
        case .scenarios: "scenarios"
        case .shard: "shard"
        case .runtimes: "runtimes"
        case .caseID: "caseID"
        case .jobs: "jobs"
        case .timeout: "timeout"
        case .out: "out"
        case .inputSet: "inputSet"
        case .shardFolders: "shardFolders"
        case .named(let name): name
        }
    }
}
