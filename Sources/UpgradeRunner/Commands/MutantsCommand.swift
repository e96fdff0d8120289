import Foundation
import SimDevice
import SimRuntime

/// `upgrade-runner mutants`: the known-bad catalogue against the gate, and which condition caught each.
enum MutantsCommand {
    static let spec = CommandSpec(
        ["mutants"], summary: "Run the known-bad builds against the gate: which condition caught each.",
        options: [
            CommonOptions.jobs,
            OptionSpec("--out", value: "DIR", "The artifacts folder (default: artifacts/mutants, replaced on each run)."),
            OptionSpec("--builds", value: "IDS", "The released builds, oldest first, comma-separated (default: v1,v2,v3)."),
            OptionSpec(
                "--scenarios", value: "LIST", "The scenarios, comma-separated (default: every scenario, exploration included)."),
            OptionSpec(
                "--case-id", value: "ID", "The test-case id the secrets derive from (default: random, recorded in each run.json)."
            ),
            OptionSpec("--timeout", value: "SECONDS", "Seconds before a hanging app launch is killed (default: 30)."),
            CommonOptions.buildsDir, CommonOptions.products,
        ],
        discussion: """
            Runs the gate over the released builds, then, for each known-bad build in builds/mutants/<id>/ (one anti-pattern
            each, its manifest naming the condition that must catch it), the gate with the mutant as the new build: a fresh
            install, and an upgrade from each released build of a lower schema. Prints a table: mutant, anti-pattern,
            expected condition, the conditions that failed, and whether it was caught (its expected condition FAILed).
            Writes released/, <mutant>/<path>/ (each a gate's artifacts), mutants.json and mutants.md to the artifacts folder.
            Exit code: 0 every mutant caught and the released builds PASS, 1 a mutant escaped or a released build FAILs,
            2 bad usage or input, 3 every mutant caught but the released builds' verdict is UNKNOWN.
            """)

    /// The default artifacts folder; a run replaces the previous one there.
    static let defaultOut = "artifacts/mutants"

    static func run(_ invocation: Invocation) throws -> Int32 {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        let released = (invocation.option("--builds") ?? "v1,v2,v3").split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        _ = try GatePlan.defaultPaths(builds: released)
        let scenarios = try invocation.option("--scenarios").map { try Scenario.parseList($0) } ?? Scenario.allCases
        let caseID = try invocation.caseID()
        let jobs = try invocation.integer("--jobs", in: 1...64) ?? ProcessInfo.processInfo.activeProcessorCount
        let timeout = Double(try invocation.integer("--timeout", in: 1...3600) ?? 30)
        let out = invocation.absolute(invocation.option("--out") ?? defaultOut)
        let console = invocation.console
        let run = MutantsRun(
            catalog: invocation.buildCatalog, released: released, scenarios: scenarios, runtime: .current,
            caseID: caseID, outFolder: out, jobs: jobs, timeout: timeout, progress: { console.error($0) })
        _ = try MutantsRun.mutants(in: run.catalog)
        try MutantsOutput.prepare(out)
        let summary = try run.execute()
        console.output(summary.table, terminator: "")
        console.error("artifacts: \(out)")
        return summary.exitCode
    }
}
