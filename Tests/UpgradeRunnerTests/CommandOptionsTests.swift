@testable import GateExecution
@testable import GateModel
import Testing
import UpgradeContract
@testable import UpgradeRunner

/// Each command's options are a typed struct built once from the command line, reading only the
/// options its spec declares.
@Suite struct CommandOptionsTests {
    /// The arguments each command needs for its options struct to be built to the end (every
    /// option read): the required options.
    static let required: [String: [String]] = [
        "run": ["--to", "v2"], "bundle": ["--out", "x.tar.gz"], "merge": ["--out", "merged"],
    ]

    /// The options struct of `command`, built from `words` with undeclared reads recorded.
    static func build(_ command: Command, _ words: [String]) throws -> [String] {
        let log = UndeclaredReads()
        let parsed = try ParsedArguments.parse(words, for: command.spec)
        let values = OptionValues(
            spec: command.spec, parsed: parsed, environment: ["UPGRADE_RUNNER_BUILDS": "/nonexistent"], log: log)
        _ = try command.readOptions(values)
        return log.all
    }

    @Test("every command's options struct reads only options its spec declares", arguments: CommandTable.all.map(\.spec.name))
    func declaredOnly(name: String) throws {
        let command = try #require(CommandTable.all.first { $0.spec.name == name })
        // Positionals the parser requires, so that the options are read at all.
        let positionals =
            command.spec.arguments.filter { !$0.optional && !$0.repeating }.map { _ in "p" }
            + (command.spec.arguments.contains { $0.repeating && !$0.optional } ? ["p"] : [])
        #expect(try Self.build(command, positionals + (Self.required[name] ?? [])) == [])
    }

    @Test("mutants takes the gate's runtime options: a matrix of two, one runtime alone, or a bad one named")
    func mutantsRuntimes() throws {
        func options(_ words: [String]) throws -> MutantsOptions {
            let spec = MutantsCommand.spec
            return try MutantsOptions(
                OptionValues(
                    spec: spec, parsed: try ParsedArguments.parse(words, for: spec),
                    environment: ["UPGRADE_RUNNER_BUILDS": "/nonexistent"]))
        }
        let matrix = try options(["--runtimes", "iOS 15.0,iOS 17.5"])
        #expect(matrix.runtime == RuntimeVersion(major: 15) && matrix.runtimes == [RuntimeVersion(major: 15), .current])
        let one = try options(["--runtime", "iOS 12.4"])
        #expect(one.runtime == RuntimeVersion(major: 12, minor: 4) && one.runtimes == nil)
        #expect(throws: GateError.self) { try options(["--runtimes", "iOS 15.0,Android 14"]) }
    }

    @Test("an option read that its command does not declare is recorded (in a command run, it traps in debug)")
    func undeclaredIsCaught() throws {
        let spec = CommandSpec(["x"], summary: "s", options: [CommonOptions.jobs], discussion: "")
        let log = UndeclaredReads()
        let values = OptionValues(spec: spec, parsed: try ParsedArguments.parse([], for: spec), environment: [:], log: log)
        _ = try values.integer(CommonOptions.jobs, in: 1...64)
        #expect(log.all.isEmpty)
        // Same name, another option: the launch --timeout is not the gate's.
        _ = values.value(CommonOptions.timeout)
        _ = values.flag(CommonOptions.json)
        #expect(log.all == ["--timeout", "--json"])
    }

    @Test("gate's options are typed and checked once: --jobs, --case-id, --out, --scenarios")
    func gateOptions() throws {
        let command = try #require(CommandTable.command(matching: ["gate"]))
        let words = ["--jobs", "3", "--case-id", "abc", "--out", "/tmp/o", "--scenarios", "upgrade,relaunch"]
        let values = OptionValues(
            spec: command.spec, parsed: try ParsedArguments.parse(words, for: command.spec), environment: [:])
        let options = try GateOptions(values)
        #expect(options.settings.request.jobs == 3)
        #expect(options.settings.request.caseID == "abc")
        #expect(options.settings.request.out == "/tmp/o")
        #expect(!options.settings.request.force)
        #expect(options.scenarios == [.upgrade, .relaunch])
        #expect(options.builds == ["v1", "v2", "v3"])
        let bad = OptionValues(
            spec: command.spec, parsed: try ParsedArguments.parse(["--jobs", "0"], for: command.spec), environment: [:])
        #expect(throws: UsageError.invalidValue("0", for: "--jobs", reason: "is not a whole number from 1 to 64")) {
            try GateOptions(bad)
        }
    }

    @Test("--skip-scenarios leaves scenarios out of --scenarios, else of the default list; leaving none is bad usage")
    func skipScenarios() throws {
        let command = try #require(CommandTable.command(matching: ["gate"]))
        func options(_ words: [String]) throws -> GateOptions {
            try GateOptions(
                OptionValues(spec: command.spec, parsed: try ParsedArguments.parse(words, for: command.spec), environment: [:]))
        }
        let skipped = try options(["--skip-scenarios", "crash-points,write-failure"]).scenarios
        #expect(skipped == Scenario.gateDefault.filter { $0 != .crashPoints && $0 != .writeFailure })
        #expect(
            try options(["--scenarios", "upgrade,relaunch", "--skip-scenarios", "relaunch,power-loss"]).scenarios == [.upgrade])
        #expect(throws: UsageError.invalidValue("upgrade", for: "--skip-scenarios", reason: "leaves no scenario to run")) {
            try options(["--scenarios", "upgrade", "--skip-scenarios", "upgrade"])
        }
        #expect(throws: GateError.self) { try options(["--skip-scenarios", "upgrades"]) }
        let mutants = try #require(CommandTable.command(matching: ["mutants"]))
        #expect(mutants.spec.option("--skip-scenarios") != nil)
    }
}
