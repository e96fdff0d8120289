/// Verbs that later issues implement. Their help already describes them; running one answers
/// "not implemented yet" with exit code 2.
enum PlannedCommands {
    static func run(_ invocation: Invocation) throws -> Int32 {
        throw UsageError.notImplemented(command: invocation.spec.name)
    }

    static let replay = CommandSpec(
        ["replay"], summary: "Rerun a run from its artifacts and compare the status files.",
        arguments: [ArgumentSpec("DIR", "An artifacts folder holding run.json.")],
        discussion: "Reruns from run.json and compares the new status files with the archived ones, byte for byte. A build\nwhose sha256 differs from the archived one is reported before anything runs.",
        implemented: false)

    static let merge = CommandSpec(
        ["merge"], summary: "Join the artifacts of shards into one verdict.",
        arguments: [ArgumentSpec("DIR", "A shard's artifacts folder.", repeating: true)],
        options: [CommonOptions.out],
        discussion: "Merges the shards of one gate into one verdict; a missing shard makes it UNKNOWN.",
        implemented: false)

    static let builds = CommandSpec(
        ["builds"], summary: "List the archived builds with versions, teams, groups and sha256.",
        options: [CommonOptions.buildsDir, CommonOptions.json],
        discussion: "Lists the builds in builds/ with their ids, versions, teams, access groups and sha256.",
        implemented: false)

    static let scanSecrets = CommandSpec(
        ["scan-secrets"], summary: "Scan a folder for seeded secrets.",
        arguments: [ArgumentSpec("DIR", "The folder to scan.")],
        discussion: "Looks for every seeded secret, raw and in base64, hex and SHA-256 hex, in every file under DIR.",
        implemented: false)
}
