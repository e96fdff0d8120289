import Foundation
import GateExecution
import GateModel

/// `upgrade-runner scan-secrets DIR`: the gate's leak scan on its own.
enum ScanSecretsCommand {
    static let dirArgument = ArgumentSpec("DIR", "The folder to scan, usually an artifacts folder.")
    static let spec = CommandSpec(
        ["scan-secrets"], summary: "Scan a folder for seeded secrets.",
        arguments: [dirArgument],
        options: [
            Options.caseID, CommonOptions.json,
        ],
        discussion: """
            Looks for every secret the run seeded in every file under DIR, in every encoding the gate checks, and prints
            "FILE: holds secret #N (LABEL) as ENCODING", never a value. The case id comes from DIR/run.json, else
            --case-id. In full: docs/cli.md#scan-secrets. Exit code: 0 clean, 1 a secret was found, 2 bad usage or
            input, 3 a file could not be read.
            """)

    /// What `--json` prints.
    struct Output: Encodable {
        var caseID: String
        var leaks: [SecretLeak]
        var unreadable: [String]
        var filesScanned: Int
        var bytesScanned: Int
        var patterns: Int
    }

    /// The options of `scan-secrets`, read once.
    struct Options {
        static let caseID = OptionSpec(
            "--case-id", value: "ID", "The test case whose secrets to look for, when DIR holds no run.json.")

        /// `--case-id` as given (checked against DIR/run.json when the scan starts).
        var caseID: String?
        var json: Bool
        /// The builds whose secret labels to look for: the environment's builds folder (the command takes no --builds-dir).
        var source: BuildSource

        init(_ options: OptionValues) {
            caseID = options.value(Self.caseID)
            json = options.flag(CommonOptions.json)
            source = BuildSource.environment(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let folder = invocation.absolute(invocation.argument(dirArgument))
        let caseID = try caseID(in: folder, flag: options.caseID)
        let labels = options.source.catalog.declaredSecretLabels()
        // No label, no pattern: a scan for nothing would say "clean" of any folder.
        if labels.isEmpty {
            throw CommandFailure(
                message:
                    "scan-secrets: the builds folder \(options.source.catalog.folder) declares no secret (no build.json with keeps.secrets), "
                    + "so there is nothing to scan for; run it where builds/ is, or set UPGRADE_RUNNER_BUILDS",
                code: ExitStatus.usage)
        }
        let result = try SecretScanner.scan(directory: folder, secrets: GatePipeline.secrets(caseID: caseID, labels: labels))
        if options.json {
            try invocation.printJSON(
                Output(
                    caseID: caseID, leaks: result.leaks, unreadable: result.unreadable,
                    filesScanned: result.filesScanned, bytesScanned: result.bytesScanned, patterns: result.patterns))
        } else {
            for leak in result.leaks { invocation.console.output(leak.description) }
            if result.isClean { invocation.console.output("clean: no secret of case \(caseID) in \(result.coverage)") }
        }
        for file in result.unreadable { invocation.console.error("error: \(file): cannot be read; the scan cannot vouch for it") }
        invocation.console.error("scanned \(result.coverage)")
        if !result.leaks.isEmpty { return ExitStatus.fail }
        return result.unreadable.isEmpty ? ExitStatus.pass : ExitStatus.unknown
    }

    /// The case id of `folder/run.json`, else `flag`; both given and different is bad input.
    static func caseID(in folder: String, flag: String?) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw GateError.unreadable(path: folder, reason: "is not a folder")
        }
        let runPath = folder + "/" + GateArtifacts.runFile
        if FileManager.default.fileExists(atPath: runPath) {
            let recorded = try RunInputs.read(from: runPath).caseID
            if let flag, flag != recorded {
                throw UsageError.invalidValue(flag, for: "--case-id", reason: "differs from case \"\(recorded)\" of \(runPath)")
            }
            return recorded
        }
        guard let flag else {
            throw UsageError.invalidValue(
                folder, for: "scan-secrets", reason: "holds no run.json; pass --case-id to name the case")
        }
        return try CaseIDOption.valid(flag)
    }
}
