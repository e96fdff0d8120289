import Foundation
import GateExecution
import GateModel
import SimDevice

/// `upgrade-runner bundle DIR -o FILE.tar.gz`: a run's artifacts and inputs in one file to hand over.
enum BundleCommand {
    static let dirArgument = ArgumentSpec("DIR", "An artifacts folder of a finished run made with --archive-inputs.")
    static let spec = CommandSpec(
        ["bundle"], summary: "Pack a run's artifacts and archived inputs into one file that replay accepts.",
        arguments: [dirArgument],
        options: [Options.out],
        discussion: """
            Packs a finished run made with --archive-inputs (run.json, the verdict files, paths/, inputs/) into one
            gzip'd tar for a bug report; upgrade-runner replay FILE reruns it anywhere with only the runner. The same
            folder gives the same bytes. A dynamically linked build or a run that still holds a secret is refused.
            In full: docs/cli.md#bundle. Exit code: 0 written, 2 bad usage or input, 3 a file could not be written.
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
        let given = invocation.argument(dirArgument)
        let folder = invocation.absolute(given)
        let file = options.file
        if ResolvedPath.isSame(file, orInside: folder) {
            throw CommandFailure(
                message: "bundle: --out \(output) is inside \(given), the run it packs; write the bundle outside the run folder",
                code: ExitStatus.usage)
        }
        let inputs = try ReplayRequest.archivedInputs(in: folder)
        guard let archive = inputs.archivedInputs,
            FileManager.default.fileExists(atPath: folder + "/" + ArchivedInputs.folderName)
        else {
            throw GateError.malformed(
                path: folder, reason: "holds no archived inputs (inputs/): run the gate with --archive-inputs to bundle it")
        }
        let catalog = try archive.catalog(in: folder, pins: inputs.buildFiles, runFile: folder + "/" + GateArtifacts.runFile)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
            throw UsageError.invalidValue(output, for: "--out", reason: "is a folder; name the bundle file to write")
        }
        try refuseDynamicRuntime(inputs, catalog: catalog)
        let builds = try GatePipeline.resolve(inputs.builds, in: catalog)
        let leaking = try RunBundle.filesHoldingSecrets(
            in: folder, secrets: GatePipeline.secrets(caseID: inputs.caseID, builds: builds.values))
        if !leaking.isEmpty {
            let named = leaking.prefix(5).joined(separator: ", ") + (leaking.count > 5 ? " and \(leaking.count - 5) more" : "")
            throw CommandFailure(
                message:
                    "\(folder): \(leaking.count == 1 ? "1 file still holds" : "\(leaking.count) files still hold") a secret of case "
                    + "\(inputs.caseID) (\(named)); a bundle would carry it: redact or remove them, or bundle a clean run",
                code: ExitStatus.usage)
        }
        let size = try RunBundle.pack(folder, to: file)
        invocation.console.output("\(file): \(size) bytes")
        return ExitStatus.pass
    }

    /// Refuses a build whose archived executable names a Swift runtime library of the toolchain.
    static func refuseDynamicRuntime(_ inputs: RunInputs, catalog: BuildCatalog) throws {
        for id in inputs.builds {
            guard let executable = catalog.executables[id] else { continue }
            let runtime = try ELFLinkage.neededLibraries(ofFileAt: executable).filter(ELFLinkage.isSwiftRuntime)
            guard !runtime.isEmpty else { continue }
            throw CommandFailure(
                message:
                    "build \(id): its executable loads the Swift runtime from the toolchain (\(runtime.prefix(3).joined(separator: ", "))"
                    + "\(runtime.count > 3 ? ", ..." : "")), which a bundle does not carry; link it with -static-stdlib to bundle it",
                code: ExitStatus.usage)
        }
    }
}
