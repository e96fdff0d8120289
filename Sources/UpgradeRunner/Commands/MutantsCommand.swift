import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

/// `upgrade-runner mutants`: the known-bad catalogue against the gate, and which condition caught each.
enum MutantsCommand {
    static let spec = CommandSpec(
        ["mutants"], summary: "Run the known-bad builds against the gate: which condition caught each.",
        options: [
            CommonOptions.jobs, MutantsOptions.out, MutantsOptions.builds, MutantsOptions.scenarios, ScenarioSelection.skip,
            MutantsOptions.caseID, GateSettings.runtime, GateSettings.runtimes,
            CommonOptions.timeout, CommonOptions.buildsDir, CommonOptions.products,
        ],
        discussion: """
            Runs the gate over the released builds, then with each known-bad build in builds/mutants/ as the new
            build, and prints which conditions caught each. Writes released/, <mutant>/<path>/, mutants.json and
            mutants.md to the artifacts folder. In full: docs/mutants.md. Exit code: 0 every mutant caught and the
            released builds PASS, 1 a mutant escaped or a released build FAILs, 2 bad usage or input, 3 UNKNOWN.
            """)

    static func run(_ options: MutantsOptions, _ invocation: Invocation) throws -> Int32 {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        let console = invocation.console
        var run = MutantsRun(
            catalog: options.source.catalog, released: options.released, scenarios: options.scenarios,
            runtime: options.runtime, caseID: options.caseID, outFolder: options.out, jobs: options.execution.jobs,
            timeout: options.execution.timeout, progress: { console.error($0) })
        run.runtimes = options.runtimes
        try run.validate()
        try MutantsOutput.prepare(options.out)
        let summary = try run.execute()
        console.output(summary.table, terminator: "")
        console.error("artifacts: " + QuotedValue.oneLine(options.out))
        return summary.exitCode
    }
}

/// The options of `mutants`, read and checked once.
struct MutantsOptions {
    static let out = OptionSpec(
        "--out", value: "DIR", "The artifacts folder (default: artifacts/mutants, replaced on each run).")
    static let builds = OptionSpec(
        "--builds", value: "IDS", "The released builds, oldest first, comma-separated (default: v1,v2,v3).")
    static let scenarios = OptionSpec(
        "--scenarios", value: "LIST",
        "The scenarios, comma-separated (default: every scenario but the opt-in power-loss, exploration included; extension-first and interleavings where the new build declares an app extension, second-device where the old build keeps a synchronizable secret)."
    )
    static let caseID = OptionSpec(
        "--case-id", value: "ID", "The test-case id the secrets derive from (default: random, recorded in each run.json).")

    /// The default artifacts folder; a run replaces the previous one there.
    static let defaultOut = "artifacts/mutants"

    var source: BuildSource
    /// The released builds, oldest first.
    var released: [String]
    var scenarios: [Scenario]
    var caseID: String
    var execution: CellExecution
    /// The artifacts folder, absolute.
    var out: String
    /// The devices' runtime (`--runtime`), and a matrix (`--runtimes`, nil for one): every gate of
    /// the catalogue runs on each, and a mutant is caught when a runtime's cell catches it.
    var runtime: RuntimeVersion
    var runtimes: [RuntimeVersion]?

    init(_ options: OptionValues) throws {
        source = BuildSource(options)
        released = options.value(Self.builds).map(GateSettings.list) ?? GateRequest.defaultBuilds
        _ = try GatePlan.defaultPaths(builds: released)
        scenarios = try ScenarioSelection.read(options, Self.scenarios)
        caseID = try CaseIDOption.read(options, Self.caseID)
        execution = try CellExecution(options)
        out = OutOption(options, Self.out, force: nil).folder(else: options.absolute(Self.defaultOut))
        (runtime, runtimes) = try GateSettings.runtimes(options)
    }
}
