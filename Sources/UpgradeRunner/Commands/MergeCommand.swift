import Foundation
import GateExecution
import GateModel

/// `upgrade-runner merge DIR... --out DIR`: joins the artifacts of a sharded gate into one verdict.
enum MergeCommand {
    static let spec = CommandSpec(
        ["merge"], summary: "Join the artifacts of shards into one verdict.",
        arguments: [ArgumentSpec("DIR", "A shard's artifacts folder.", repeating: true)],
        options: [
            Options.out, CommonOptions.force,
        ],
        discussion: """
            Merges the shard folders of one gate (each made with --shard i/n from the same inputs) into one run.json,
            gate.json, junit.xml and summary.md, copies every shard's paths/ folders beside them, and prints the
            verdict table. A missing shard, or one that did not finish, makes the verdict UNKNOWN; shards made from
            different inputs, of different counts or given twice are refused before anything is written.
            Exit code: 0 PASS, 1 FAIL, 2 bad usage or input, 3 UNKNOWN.
            """)

    /// The options of `merge`, read and checked once.
    struct Options {
        static let out = OptionSpec("--out", value: "DIR", "The merged artifacts folder (required).")

        /// The merged artifacts folder, absolute.
        var out: String
        var force: Bool

        init(_ options: OptionValues) throws(UsageError) {
            let output = OutOption(options, Self.out)
            guard let given = output.given else { throw .missingOption("--out", command: "merge") }
            out = given
            force = output.forced
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let folders = invocation.positionals.map(invocation.absolute)
        let out = options.out
        let report = try GateMerger.merge(folders: folders, out: out, force: options.force)
        let inputs = try RunInputs.read(from: out + "/" + GateArtifacts.runFile)
        invocation.console.output(GateArtifacts.summaryText(report: report, inputs: inputs, out: out), terminator: "")
        invocation.console.error("artifacts: " + QuotedValue.oneLine(out))
        return report.verdict.exitCode
    }
}
