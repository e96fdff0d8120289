import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

/// `upgrade-runner run`: one upgrade path.
enum RunCommand {
    static let from = OptionSpec("--from", value: "OLD", "The old build id (leave out for a fresh install of NEW).")
    static let to = OptionSpec("--to", value: "NEW", "The new build id.")
    static let scenario = OptionSpec(
        "--scenario", value: "LIST", "The scenarios, comma-separated (default: upgrade, or fresh-install without --from).")

    static let spec = CommandSpec(
        ["run"], summary: "Run one upgrade path.",
        options: [from, to, scenario] + GateSettings.specs,
        discussion: """
            Installs OLD on a fresh device, seeds it, upgrades in place to NEW, launches and verifies, and judges the
            path's gate conditions; the artifacts are the gate's, for one path.
            Exit code: 0 PASS, 1 FAIL, 2 bad usage or input, 3 UNKNOWN.
            """)

    static func run(_ options: RunOptions, _ invocation: Invocation) throws -> Int32 {
        try options.settings.execute(
            builds: options.path.builds, path: options.path, scenarios: options.scenarios, scenariosNamed: true, shard: nil,
            console: invocation.console)
    }
}

/// The options of `run`, read and checked once.
struct RunOptions {
    var path: BuildPair
    var scenarios: [Scenario]
    var settings: GateSettings

    init(_ options: OptionValues) throws {
        guard let new = options.value(RunCommand.to) else { throw UsageError.missingOption("--to", command: "run") }
        let old = options.value(RunCommand.from)
        if old == new {
            throw UsageError.invalidValue(new, for: "--to", reason: "is also --from: a path goes from one build to another")
        }
        path = BuildPair(old: old, new: new)
        scenarios =
            try options.value(RunCommand.scenario).map { try Scenario.parseList($0, field: .named("--scenario")) }
            ?? [old == nil ? .freshInstall : .upgrade]
        for id in path.builds { try BuildPair.validate(buildID: id) }
        settings = try GateSettings(options, source: BuildSource(options))
    }
}
