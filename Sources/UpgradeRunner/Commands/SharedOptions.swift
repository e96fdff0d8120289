import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

// The option groups several commands share, each read by one struct.

/// `--builds-dir` and `--products`: the archived builds and their executables (else
/// `$UPGRADE_RUNNER_BUILDS`, else `./builds`; else `$UPGRADE_RUNNER_PRODUCTS`, else `./.build/debug`).
struct BuildSource {
    var catalog: BuildCatalog

    init(_ options: OptionValues) {
        self.init(
            buildsDir: options.value(CommonOptions.buildsDir), products: options.value(CommonOptions.products),
            options: options)
    }

    /// For a command that takes neither option (`scan-secrets`): the environment's folders, else the defaults.
    static func environment(_ options: OptionValues) -> BuildSource {
        BuildSource(buildsDir: nil, products: nil, options: options)
    }

    /// The builds folder alone, for a command that takes `--builds-dir` but no products (`entitlements`).
    static func folder(_ options: OptionValues) -> String {
        BuildSource(buildsDir: options.value(CommonOptions.buildsDir), products: nil, options: options).catalog.folder
    }

    private init(buildsDir: String?, products: String?, options: OptionValues) {
        let environment = options.environment
        catalog = BuildCatalog(
            folder: options.absolute(buildsDir ?? environment["UPGRADE_RUNNER_BUILDS"] ?? "builds"),
            productsFolder: options.absolute(
                products ?? environment[BuildCatalog.productsEnvironmentKey] ?? ".build/debug"))
    }
}

/// `--devices-root`: the devices, else `$UPGRADE_RUNNER_DEVICES`, else `~/.upgrade-runner/devices`.
struct DevicesRoot {
    var deviceSet: DeviceSet

    init(_ options: OptionValues) {
        deviceSet = DeviceSet(
            root: options.absolute(
                DeviceSet.resolveRoot(flag: options.value(CommonOptions.devicesRoot), environment: options.environment)))
    }

    /// The device named by the `DEVICE` argument.
    func device(_ invocation: Invocation) throws -> Device { try deviceSet.device(invocation.argument(CommonOptions.device)) }

    /// The device named by the `DEVICE` argument, taken for this command.
    func session(_ invocation: Invocation) throws -> DeviceSession { try device(invocation).acquire() }
}

/// `--json` and `--devices-root`: what a command that prints about devices reads (`device list`, `keychain`).
struct DeviceListing {
    var json: Bool
    var devices: DevicesRoot

    init(_ options: OptionValues) {
        json = options.flag(CommonOptions.json)
        devices = DevicesRoot(options)
    }
}

/// `--jobs` and `--timeout`: how a run of cells goes (gate, run, replay, mutants).
struct CellExecution {
    /// Cells run in parallel (default: the number of CPUs).
    var jobs: Int
    /// Seconds before a hanging app launch is killed (default: 30).
    var timeout: Double

    init(_ options: OptionValues) throws(UsageError) {
        jobs = try options.integer(CommonOptions.jobs, in: RequestLimits.jobs) ?? ProcessInfo.processInfo.activeProcessorCount
        timeout = Double(try options.integer(CommonOptions.timeout, in: RequestLimits.timeout) ?? 30)
    }
}

/// `--case-id`: 1 to ``RequestLimits/caseIDLength`` ASCII letters, digits, `-` and `_`, starting with a letter or
/// digit (it becomes a launch argument, a part of service and account names and of file names, so it
/// may not start with `-`); random when not given.
/// `--scenarios LIST` and `--skip-scenarios LIST` of `gate` and `mutants`: the scenarios given (else
/// every scenario but the opt-in ones), less those skipped. Skipping one that is not selected is no
/// error (`--skip-scenarios power-loss` on the default list changes nothing); skipping every one is.
enum ScenarioSelection {
    static let skip = OptionSpec(
        "--skip-scenarios", value: "LIST",
        "Leave these scenarios out, comma-separated (from --scenarios, else from the default list).")

    static func read(_ options: OptionValues, _ scenarios: OptionSpec) throws -> [Scenario] {
        let selected = try options.value(scenarios).map { try Scenario.parseList($0) } ?? Scenario.gateDefault
        guard let text = options.value(skip) else { return selected }
        let skipped = try Scenario.parseList(text, field: .named(skip.name))
        let left = selected.filter { !skipped.contains($0) }
        if left.isEmpty {
            throw UsageError.invalidValue(text, for: skip.name, reason: "leaves no scenario to run")
        }
        return left
    }
}

enum CaseIDOption {
    /// The case id `option` gives (each command has its own help text for it), else a random one.
    static func read(_ options: OptionValues, _ option: OptionSpec) throws(UsageError) -> String {
        guard let given = options.value(option) else { return CaseSecrets.randomCaseID() }
        return try valid(given)
    }

    /// The case id `text`, checked (``RequestLimits/caseIDProblem(_:)``).
    static func valid(_ text: String) throws(UsageError) -> String {
        if let reason = RequestLimits.caseIDProblem(text) { throw .invalidValue(text, for: "--case-id", reason: reason) }
        return text
    }
}

/// `--out` and `--force`: the artifacts folder of a run. A folder left to its default is replaced
/// on each run (as if forced); one named by `--out` is guarded unless `--force`.
struct OutOption {
    /// `--out` made absolute, when given.
    var given: String?
    /// `--force` (false for a command that does not take it).
    var forced: Bool

    /// `option` is the command's own `--out` (each has its own help text).
    init(_ options: OptionValues, _ option: OptionSpec, force: OptionSpec? = CommonOptions.force) {
        given = options.value(option).map(options.absolute)
        forced = force.map(options.flag) ?? false
    }

    /// Whether the run may write into a folder that holds files that are not a run's.
    var force: Bool { forced || given == nil }

    /// The folder: `--out`, else `fallback` (absolute).
    func folder(else fallback: @autoclosure () -> String) -> String { given ?? fallback() }
}
