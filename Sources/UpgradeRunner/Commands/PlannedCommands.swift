/// Verbs that later issues implement. Their help already describes them; running one answers
/// "not implemented yet" with exit code 2.
enum PlannedCommands {
    static func run(_ invocation: Invocation) throws -> Int32 {
        throw UsageError.notImplemented(command: invocation.spec.name)
    }
}
