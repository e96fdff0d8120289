import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

/// What `gate` and `run` share: their common options, read once, and how they run.
struct GateSettings {
    static let caseID = OptionSpec(
        "--case-id", value: "ID",
        "The test-case id the secrets derive from: up to 64 of A-Z a-z 0-9 - _, not starting with - (default: random, recorded in run.json)."
    )
    static let runtime = OptionSpec(
        "--runtime", value: "VERSION", "The devices' runtime, such as \"iOS 17.5\" (default: iOS 17.5).")
    static let runtimes = OptionSpec(
        "--runtimes", value: "LIST",
        "A runtime matrix: every cell on each runtime, comma-separated, such as \"iOS 12.4,iOS 15.0,iOS 17.5\".")
    static let out = OptionSpec("--out", value: "DIR", "The artifacts folder (default: artifacts/gate, replaced on each run).")
    static let archiveInputs = OptionSpec(
        "--archive-inputs",
        "Copy every build's manifest, entitlements and executable into DIR/inputs/, so replay needs only the artifacts.")
    static let inputs = OptionSpec(
        "--inputs", value: "SET",
        "full (default): every input the gate varies; minimal: no late-upgrade, no seed-variants, and honest-status at one clock, for a quicker gate."
    )
    static let keepFailed = OptionSpec(
        "--keep-failed", value: "DIR",
        "Keep the devices of each failed or unknown cell and attempt in DIR (new or empty; made 0700: they hold the secrets), with the launch lines that reproduce them in DIR/kept.md."
    )
    static let quiet = OptionSpec(
        "--quiet", "Print no progress on standard error (the verdict table still goes to standard output).")

    static let specs: [OptionSpec] = [
        caseID, runtime, runtimes, inputs, out, archiveInputs, keepFailed, CommonOptions.force, quiet, CommonOptions.timeout,
        CommonOptions.jobs, CommonOptions.buildsDir, CommonOptions.products,
    ]

    /// The default artifacts folder; a run replaces the previous one there.
    static let defaultOut = "artifacts/gate"

    /// The request the options make, with what every command shares (runtime, case, jobs and
    /// timeout, artifacts folder, builds folder); each command adds its builds, path or routes,
    /// scenarios and shard (``execute(builds:path:routes:scenarios:shard:console:)``).
    var request: GateRequest
    var quiet: Bool

    /// The runtime (`--runtime`, default iOS 17.5) and the matrix (`--runtimes`, nil for one
    /// runtime: one runtime is no matrix, and the run and its artifacts are those of `--runtime`).
    static func runtimes(_ options: OptionValues) throws -> (runtime: RuntimeVersion, matrix: [RuntimeVersion]?) {
        let single = options.value(Self.runtime)
        var runtime =
            try single.map { text throws(UsageError) -> RuntimeVersion in
                guard let version = RuntimeVersion(text) else {
                    throw .invalidValue(text, for: "--runtime", reason: "is not an iOS runtime such as \"iOS 17.5\"")
                }
                return version
            } ?? .current
        let matrixText = options.value(Self.runtimes)
        var runtimes = try matrixText.map { try RuntimeVersion.parseList($0) }
        if let list = runtimes, let matrixText {
            if single != nil {
                throw UsageError.invalidValue(
                    matrixText, for: "--runtimes", reason: "cannot be given with --runtime (name it in the list)")
            }
            runtime = list[0]
            if list.count == 1 { runtimes = nil }
        }
        return (runtime, runtimes)
    }

    init(_ options: OptionValues, source: BuildSource) throws {
        let (runtime, runtimes) = try Self.runtimes(options)
        let caseID = try CaseIDOption.read(options, Self.caseID)
        let execution = try CellExecution(options)
        let given = OutOption(options, Self.out)
        request = GateRequest(
            builds: [], scenarios: [], runtime: runtime, runtimes: runtimes, caseID: caseID, jobs: execution.jobs,
            timeout: execution.timeout, out: given.folder(else: options.absolute(Self.defaultOut)), force: given.force,
            archiveInputs: options.flag(Self.archiveInputs), buildsFolder: source.catalog.folder,
            productsFolder: source.catalog.productsFolder)
        if let set = options.value(Self.inputs) {
            guard let parsed = InputSet(rawValue: set) else {
                throw UsageError.invalidValue(set, for: "--inputs", reason: "is not one of full, minimal")
            }
            request.inputSet = parsed
        }
        if let folder = options.value(Self.keepFailed) {
            guard !folder.isEmpty else { throw UsageError.invalidValue(folder, for: "--keep-failed", reason: "is empty") }
            request.keepFailed = options.absolute(folder)
        }
        quiet = options.flag(Self.quiet)
    }

    /// A comma-separated list of build ids, each trimmed.
    static func list(_ text: String) -> [String] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Runs the request for `builds` (one `path` for `run`), prints the verdict table, and returns the exit code.
    func execute(
        builds: [String], path: BuildPair?, routes: [BuildPair]? = nil, release: String? = nil, strict: Bool = false,
        scenarios: [Scenario], scenariosNamed: Bool, shard: ShardSpec?, console: Console
    ) throws -> Int32 {
        var request = request
        (request.builds, request.path, request.routes) = (builds, path, routes)
        (request.scenarios, request.scenariosNamed, request.shard) = (scenarios, scenariosNamed, shard)
        request.release = release
        request.strict = strict
        let (report, inputs) = try request.execute(progress: GateProgress(console: console, quiet: quiet))
        console.output(GateArtifacts.summaryText(report: report, inputs: inputs, out: request.out), terminator: "")
        if !quiet { console.error("artifacts: " + QuotedValue.oneLine(request.out)) }
        return report.verdict.exitCode
    }
}
