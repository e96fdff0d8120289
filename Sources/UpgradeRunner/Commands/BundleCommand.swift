import Foundation
import GateExecution
import GateModel

/// `upgrade-runner bundle DIR -o FILE.tar.gz`: a run's artifacts and inputs in one file to hand over.
enum BundleCommand {
    static let dirArgument = ArgumentSpec("DIR", "An artifacts folder of a finished run made with --archive-inputs.")
    static let spec = CommandSpec(
        ["bundle"], summary: "Pack a run's artifacts and archived inputs into one file that replay accepts.",
        arguments: [dirArgument],
        options: [Options.out],
        discussion: """
            Writes DIR's run.json, gate.json, junit.xml, summary.md, timings.json, paths/ and inputs/ under one folder,
            run/, as a tar (ustar) archive in gzip, for attaching to a bug report: upgrade-runner replay FILE reruns it
            on any machine with only the runner, and tar xzf FILE unpacks it. The same folder always gives the same
            bytes (sorted entries, owner root, one fixed time). The gzip holds stored, uncompressed blocks: the runner
            links nothing that compresses. Before writing, bundle checks what replay checks: a finished, judged run whose
            run.json is the one gate.json was written for, with every archived input file of its pinned sha256.
            Exit code: 0 written, 2 bad usage or input (no inputs/, an unfinished run, a changed input), 3 a file could
            not be written.
            """)

    /// The options of `bundle`, read and checked once.
    struct Options {
        static let out = OptionSpec(
            "--out", short: "-o", value: "FILE", "The bundle to write, such as run.tar.gz (required; replaced if it exists).")

        /// `--out` as given (errors name it so).
        var output: String
        /// `--out`, absolute.
        var file: String

        init(_ options: OptionValues) throws(UsageError) {
            guard let output = options.value(Self.out) else { throw .missingOption("--out", command: "bundle") }
            self.output = output
            file = options.absolute(output)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let output = options.output
        let folder = invocation.absolute(invocation.argument(dirArgument))
        let file = options.file
        let inputs = try ReplayCommand.archivedInputs(in: folder)
        guard let archive = inputs.archivedInputs,
            FileManager.default.fileExists(atPath: folder + "/" + ArchivedInputs.folderName)
        else {
            throw GateError.malformed(
                path: folder, reason: "holds no archived inputs (inputs/): run the gate with --archive-inputs to bundle it")
        }
        _ = try archive.catalog(in: folder, pins: inputs.buildFiles, runFile: folder + "/" + GateArtifacts.runFile)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError.invalidValue(output, for: "--out", reason: "is a folder; name the bundle file to write")
        }
        let bundle = try RunBundle.pack(folder)
        try ArtifactFile.write(bundle, to: file, atomically: true)
        invocation.console.output("\(file): \(bundle.count) bytes")
        return ExitStatus.pass
    }
}
