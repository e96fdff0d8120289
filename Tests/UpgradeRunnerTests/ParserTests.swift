@testable import GateExecution
@testable import GateModel
import Testing
@testable import UpgradeRunner

@Suite struct ParserTests {
    static let spec = CommandSpec(
        ["launch"], summary: "s",
        arguments: [ArgumentSpec("DEVICE", "d"), ArgumentSpec("BUNDLE-ID", "b")],
        options: [OptionSpec("--timeout", value: "SECONDS", "t"), OptionSpec("--json", "j")],
        passthrough: ArgumentSpec("ARGS", "a"), discussion: "")

    @Test("options, flags, positionals and -- are sorted apart")
    func stageOne() throws {
        let parsed = try ParsedArguments.parse(
            ["D", "--timeout", "5", "B", "--json", "--", "-Key", "value", "--json"], for: Self.spec)
        #expect(parsed.positionals == ["D", "B"])
        #expect(parsed.options == ["--timeout": "5"])
        #expect(parsed.flags == ["--json"])
        #expect(parsed.passthrough == ["-Key", "value", "--json"])
        #expect(parsed.argument("BUNDLE-ID", in: Self.spec) == "B")
    }

    @Test("--opt=value is the same as --opt value")
    func inlineValue() throws {
        #expect(try ParsedArguments.parse(["D", "B", "--timeout=2.5"], for: Self.spec).options == ["--timeout": "2.5"])
    }

    @Test("a repeatable option keeps every value in order; the last one stays the option's value")
    func repeated() throws {
        let spec = CommandSpec(
            ["entitlements", "show"], summary: "s", arguments: [ArgumentSpec("INPUT", "i")],
            options: [OptionSpec("--setting", value: "NAME=VALUE", repeats: true, "s")], discussion: "")
        let parsed = try ParsedArguments.parse(["--setting", "A=1", "x", "--setting=B=2=3"], for: spec)
        #expect(parsed.repeated == ["--setting": ["A=1", "B=2=3"]])
        #expect(parsed.options == ["--setting": "B=2=3"])
        #expect(HelpText.usage(spec) == "upgrade-runner entitlements show INPUT [--setting NAME=VALUE]...")
    }

    @Test(
        "usage errors name the flag or argument",
        arguments: [
            (["D", "B", "--timout", "5"], UsageError.unknownOption("--timout", command: "launch", hint: "--timeout")),
            (["D", "B", "--verbose"], .unknownOption("--verbose", command: "launch", hint: nil)),
            (["D", "B", "--timeout"], .missingValue(option: "--timeout", command: "launch")),
            (["D", "B", "--json=yes"], .unexpectedValue(option: "--json", command: "launch")),
            (["D"], .missingArgument("BUNDLE-ID", command: "launch")),
            (["D", "B", "C"], .unexpectedArgument("C", command: "launch")),
        ])
    func errors(words: [String], expected: UsageError) {
        #expect(throws: expected) { try ParsedArguments.parse(words, for: Self.spec) }
    }

    @Test("--help wins over missing arguments")
    func help() throws {
        #expect(try ParsedArguments.parse(["--help"], for: Self.spec).help)
        #expect(try ParsedArguments.parse(["-h"], for: Self.spec).help)
    }

    @Test("a negative number or duration is a positional")
    func negative() throws {
        let spec = DeviceAdvanceClock.spec
        #expect(try ParsedArguments.parse(["D", "-2d"], for: spec).positionals == ["D", "-2d"])
    }

    @Test("-- is refused by a command that passes nothing through")
    func noPassthrough() {
        #expect(throws: UsageError.unexpectedArgument("x", command: "device list")) {
            try ParsedArguments.parse(["--", "x"], for: DeviceList.spec)
        }
    }

    @Test(
        "durations",
        arguments: [("31d", 31.0 * 86_400), ("1d12h", 129_600), ("90m", 5_400), ("-2d", -172_800), ("45s", 45), ("1w", 604_800)])
    func durations(text: String, seconds: Double) throws {
        #expect(try DeviceAdvanceClock.parseDuration(text) == seconds)
    }

    @Test("bad durations are refused", arguments: ["", "d", "12", "3x", "1.5d"])
    func badDurations(text: String) {
        #expect(throws: UsageError.self) { try DeviceAdvanceClock.parseDuration(text) }
    }

    @Test("the longest command path wins, and unknown words get a hint")
    func commandResolution() {
        #expect(CommandTable.command(matching: ["device", "create", "x"])?.spec.path == ["device", "create"])
        #expect(CommandTable.command(matching: ["keychain", "D", "dump"])?.spec.path == ["keychain"])
        #expect(CommandTable.command(matching: ["device"]) == nil)
        #expect(UsageError.suggestion(for: "instal", among: CommandTable.specs.map { $0.path[0] }) == "install")
    }

    @Test("every option in the table has a unique name and help")
    func specTable() {
        for spec in CommandTable.specs {
            let names = spec.options.map(\.name)
            #expect(Set(names).count == names.count, "\(spec.name)")
            #expect(spec.options.allSatisfy { $0.name.hasPrefix("--") && !$0.help.isEmpty }, "\(spec.name)")
            #expect(!spec.discussion.isEmpty, "\(spec.name)")
        }
    }
}
