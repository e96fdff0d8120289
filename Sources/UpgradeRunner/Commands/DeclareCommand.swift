import Foundation
import GateExecution
import GateModel
import SimDevice

/// `upgrade-runner declare BUILD`: a draft of the build's `keeps`, from what its seed and plain
/// launches store on a fresh device.
enum DeclareCommand {
    static let buildArgument = ArgumentSpec("BUILD", "A build id in the builds folder.")
    static let write = OptionSpec(
        "--write", "Replace the build's build.json \"keeps\" with the draft (else the draft goes to standard output).")
    static let spec = CommandSpec(
        ["declare"], summary: "Draft a build's declarations from what its launches store.",
        arguments: [buildArgument],
        options: [CommonOptions.buildsDir, CommonOptions.products, CommonOptions.timeout, write],
        discussion: """
            Runs the build's seed and then a plain launch on a fresh temporary device, and a plain launch on another, and
            prints a draft "keeps" as JSON: each declared secret where its seeded value was found, each store the launches
            left (keychain items, preference keys, files with their format), notes and the declaration's differences. No
            secret value is printed. In full: docs/cli.md#declare. Exit code: 0 the declaration agrees, 1 it differs, 2
            bad usage or input, 3 a launch could not run.
            """)

    struct Options {
        var source: BuildSource
        var timeout: Double
        var write: Bool

        init(_ options: OptionValues) throws {
            source = BuildSource(options)
            timeout = Double(try options.integer(CommonOptions.timeout, in: RequestLimits.timeout) ?? 30)
            write = options.flag(DeclareCommand.write)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let build = try options.source.catalog.build(invocation.argument(buildArgument))
        try ExecutableFormat.check(build)
        let observation = try BuildObservation.observe(build, runtime: .current, timeout: options.timeout)
        if let failed = observation.launches.first(where: { $0.termination != .exited(0) }) {
            throw GateError.io(
                path: build.executablePath, doing: "running build \(build.manifest.id)'s \(failed.name) for declare",
                cause: "the launch \(failed.termination)")
        }
        let draft = DeclarationDraft(observation)
        // A name the app built from a secret (a preference key that is the token) would print it:
        // each seeded value is replaced by its label's name, and never written into build.json.
        let labels = build.manifest.keeps?.secretLabels ?? []
        let values = labels.map { (label: $0, value: observation.secrets[$0]) }.filter { $0.value.count >= 4 }
        var text = String(decoding: try GateJSON.encoder(pretty: true).encode(draft), as: UTF8.self)
        for (label, value) in values where text.contains(value) {
            text = text.replacingOccurrences(of: value, with: "<the value of \(label)>")
        }
        if options.write {
            let keeps = String(decoding: try GateJSON.encoder(pretty: false).encode(draft.keeps), as: UTF8.self)
            if let leaked = values.first(where: { keeps.contains($0.value) }) {
                throw GateError.malformed(
                    path: build.folder + "/build.json",
                    reason: "build \(build.manifest.id): a store's name holds the value of \(leaked.label): "
                        + "declare --write leaves build.json as it is")
            }
            try DeclarationWriter.write(draft.keeps, into: build.folder + "/build.json")
            invocation.console.error("declare: wrote the draft \"keeps\" into \(build.folder)/build.json")
        }
        invocation.console.output(text)
        return options.write || draft.differences.isEmpty ? ExitStatus.pass : 1
    }
}
