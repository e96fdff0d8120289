import GateExecution
import GateModel
/// One option of a command: what the parser accepts and what the help text shows, from one table.
struct OptionSpec: Sendable, Equatable {
    /// The long name with its dashes, such as `--json`.
    var name: String
    /// The value's placeholder (`DIR`); nil for a flag.
    var value: String?
    var help: String
    /// Whether the option may be given more than once, each value kept (`--setting A=1 --setting B=2`).
    var repeats: Bool
    /// A one-letter spelling with one dash (`-o`), parsed as the long name.
    var short: String?

    init(_ name: String, short: String? = nil, value: String? = nil, repeats: Bool = false, _ help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.repeats = repeats
        self.help = help
    }

    var isFlag: Bool { value == nil }
}

/// One positional argument of a command.
struct ArgumentSpec: Sendable, Equatable {
    var name: String
    var help: String
    var optional: Bool
    /// Takes every remaining positional (`DIR...`).
    var repeating: Bool

    init(_ name: String, _ help: String, optional: Bool = false, repeating: Bool = false) {
        self.name = name
        self.help = help
        self.optional = optional
        self.repeating = repeating
    }
}

/// A command: its words, its arguments and options, and its help, in one value that both the
/// parser and the help text read, so the two cannot drift apart.
struct CommandSpec: Sendable, Equatable {
    /// The words after `upgrade-runner`, such as `["device", "create"]`.
    var path: [String]
    /// One line for command lists.
    var summary: String
    var arguments: [ArgumentSpec]
    var options: [OptionSpec]
    /// Whether `-- ARGS...` passes the rest through (to a launched app).
    var passthrough: ArgumentSpec?
    /// Paragraphs after the usage line.
    var discussion: String

    init(
        _ path: [String], summary: String, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
        passthrough: ArgumentSpec? = nil, discussion: String
    ) {
        self.path = path
        self.summary = summary
        self.arguments = arguments
        self.options = options
        self.passthrough = passthrough
        self.discussion = discussion
    }

    var name: String { path.joined(separator: " ") }

    func option(_ name: String) -> OptionSpec? { options.first { $0.name == name || $0.short == name } }
}

/// Options that several commands share.
enum CommonOptions {
    static let devicesRoot = OptionSpec(
        "--devices-root", value: "DIR",
        "The folder of simulated devices (default: $UPGRADE_RUNNER_DEVICES, else ~/.upgrade-runner/devices).")
    static let json = OptionSpec("--json", "Print JSON (sorted keys) instead of text.")
    static let buildsDir = OptionSpec(
        "--builds-dir", value: "DIR", "The archived builds folder (default: $UPGRADE_RUNNER_BUILDS, else ./builds).")
    static let products = OptionSpec(
        "--products", value: "DIR",
        "Where build executables are (default: $UPGRADE_RUNNER_PRODUCTS, else ./.build/debug).")
    static let jobs = OptionSpec(
        "--jobs", value: "N", "Cells run in parallel, each on its own device (default: the number of CPUs).")
    static let timeout = OptionSpec(
        "--timeout", value: "SECONDS", "Seconds before a hanging app launch is killed (default: 30).")
    static let force = OptionSpec(
        "--force", "Write into an --out that also holds files that are not a run's (they are left in place).")
    static let device = ArgumentSpec("DEVICE", "The device's UDID or name.")
    static let bundleID = ArgumentSpec("BUNDLE-ID", "The app's bundle id.")
}
