/// Verbs that later issues implement. Their help already describes them; running one answers
/// "not implemented yet" with exit code 2.
enum PlannedCommands {
    static func run(_ invocation: Invocation) throws -> Int32 {
        throw UsageError.notImplemented(command: invocation.spec.name)
    }

    static let mutants = CommandSpec(
        ["mutants"], summary: "Run the known-bad builds against the gate: which condition caught each.",
        options: [CommonOptions.jobs, CommonOptions.out],
        discussion: "Runs the catalogue of known-bad builds through the gate and reports the condition that caught each\nand the gate's power (the share caught).",
        implemented: false)
}
