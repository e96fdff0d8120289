import GateModel

extension GateField {
    /// The flag that sets the field on the command line (`caseID`: `--case-id`).
    var flag: String {
        switch self {
        case .builds: "--builds"
        case .routes: "--routes"
        case .release: "--release"
        case .scenarios: "--scenarios"
        case .shard: "--shard"
        case .runtimes: "--runtimes"
        case .caseID: "--case-id"
        case .jobs: "--jobs"
        case .timeout: "--timeout"
        case .out: "--out"
        case .inputSet: "--inputs"
        case .shardFolders: "merge"
        case .named(let name): name
        }
    }
}

extension GateError {
    /// The one line the command line prints: the model's, with a field named by its flag.
    var commandLineDescription: String {
        guard case .invalidValue(let field, let value, let reason) = self else { return description }
        return GateError.invalidValue(field: .named(field.flag), value: value, reason: reason).description
    }
}
