import Foundation
import GateExecution
import GateModel
import SimDevice

/// `upgrade-runner replay DIR`: reruns an archived run from its run.json and compares the status files.
enum ReplayCommand {
    static let dirArgument = ArgumentSpec(
        "DIR", "An artifacts folder holding run.json and gate.json, or a bundle file made by upgrade-runner bundle.")
    static let spec = CommandSpec(
        ["replay"], summary: "Rerun a run from its artifacts and compare the status files.",
        arguments: [dirArgument],
        options: [
            ReplayOptions.out, CommonOptions.force, ReplayOptions.quiet, CommonOptions.jobs, CommonOptions.timeout,
            CommonOptions.buildsDir, CommonOptions.products,
        ],
        discussion: """
            Reruns DIR/run.json's inputs (or a bundle's) on fresh devices beside the archive (DIR-replay) and compares
            every status file byte for byte and every cell's verdict: prints "identical" or what differs. The archive's
            pins are checked first: an edited, unfinished or UNKNOWN run or a changed build is refused. In full:
            docs/cli.md#replay. Exit code: 0 identical, 1 different, 2 bad usage or input, 3 a file could not be
            written.
            """)

    static func run(_ options: ReplayOptions, _ invocation: Invocation) throws -> Int32 {
        let argument = invocation.argument(dirArgument)
        let console = invocation.console
        let request = ReplayRequest(
            archive: invocation.absolute(argument), archiveName: argument, out: options.out.given, force: options.out.force,
            jobs: options.execution.jobs, timeout: options.execution.timeout,
            buildsFolder: options.source.catalog.folder, productsFolder: options.source.catalog.productsFolder)
        let outcome = try request.execute(
            progress: GateProgress(console: console, quiet: options.quiet), note: { console.error($0) })
        if outcome.identical {
            console.output("identical")
            return ExitStatus.pass
        }
        for line in outcome.differences { console.output(line) }
        return ExitStatus.fail
    }
}

/// The options of `replay`, read and checked once.
struct ReplayOptions {
    static let out = OptionSpec(
        "--out", value: "DIR",
        "Where the replay writes its artifacts (default: DIR-replay beside DIR, or NAME-replay beside a bundle NAME.tar.gz; replaced on each replay; never inside the archive)."
    )
    static let quiet = OptionSpec("--quiet", "Print no progress on standard error.")

    var source: BuildSource
    var execution: CellExecution
    var out: OutOption
    var quiet: Bool

    init(_ options: OptionValues) throws {
        source = BuildSource(options)
        execution = try CellExecution(options)
        out = OutOption(options, Self.out)
        quiet = options.flag(Self.quiet)
    }
}
