import GateExecution
import GateModel
/// A command of the tool: its spec, the typed options it reads from the command line, and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    /// Builds the command's options struct from `values` (for the test that every struct reads only
    /// the options its spec declares).
    let readOptions: @Sendable (OptionValues) throws -> Any
    private let body: @Sendable (OptionValues, Invocation) throws -> Int32

    /// A command whose options are `Options`, built once from the command line (checked there, each
    /// bad value a one-line error naming its flag) before `run` is called with them.
    init<Options>(
        spec: CommandSpec, options: @escaping @Sendable (OptionValues) throws -> Options,
        run: @escaping @Sendable (Options, Invocation) throws -> Int32
    ) {
        self.spec = spec
        self.readOptions = { try options($0) }
        self.body = { values, invocation in try run(try options(values), invocation) }
    }

    func run(_ values: OptionValues, _ invocation: Invocation) throws -> Int32 { try body(values, invocation) }
}

/// Every command, in the order the overview lists them.
enum CommandTable {
    static let all: [Command] = [
        Command(spec: GateCommand.spec, options: GateOptions.init, run: GateCommand.run),
        Command(spec: RunCommand.spec, options: RunOptions.init, run: RunCommand.run),
        Command(spec: ReplayCommand.spec, options: ReplayOptions.init, run: ReplayCommand.run),
        Command(spec: MergeCommand.spec, options: MergeCommand.Options.init, run: MergeCommand.run),
        Command(spec: BundleCommand.spec, options: BundleCommand.Options.init, run: BundleCommand.run),
        Command(spec: DeclareCommand.spec, options: DeclareCommand.Options.init, run: DeclareCommand.run),
        Command(spec: BuildsCommand.spec, options: BuildsCommand.Options.init, run: BuildsCommand.run),
        Command(spec: EntitlementsDiff.spec, options: EntitlementsDiff.Options.init, run: EntitlementsDiff.run),
        Command(spec: EntitlementsShow.spec, options: EntitlementsShow.Options.init, run: EntitlementsShow.run),
        Command(spec: DeviceCreate.spec, options: DeviceCreate.Options.init, run: DeviceCreate.run),
        Command(spec: DeviceList.spec, options: DeviceListing.init, run: DeviceList.run),
        Command(spec: DeviceBoot.spec, options: DeviceBoot.Options.init, run: DeviceBoot.run),
        Command(spec: DeviceShutdown.spec, options: DevicesRoot.init, run: DeviceShutdown.run),
        Command(spec: DeviceLock.spec, options: DevicesRoot.init, run: DeviceLock.run),
        Command(spec: DeviceUnlock.spec, options: DevicesRoot.init, run: DeviceUnlock.run),
        Command(spec: DeviceAdvanceClock.spec, options: DeviceAdvanceClock.Options.init, run: DeviceAdvanceClock.run),
        Command(spec: DeviceUpdateOS.spec, options: DeviceUpdateOS.Options.init, run: DeviceUpdateOS.run),
        Command(spec: DeviceErase.spec, options: DevicesRoot.init, run: DeviceErase.run),
        Command(spec: DeviceDelete.spec, options: DevicesRoot.init, run: DeviceDelete.run),
        Command(spec: DeviceBackup.spec, options: DevicesRoot.init, run: DeviceBackup.run),
        Command(spec: DeviceRestore.spec, options: DevicesRoot.init, run: DeviceRestore.run),
        Command(spec: DevicePurgeCaches.spec, options: DevicesRoot.init, run: DevicePurgeCaches.run),
        Command(spec: DevicePasscode.spec, options: DevicePasscode.Options.init, run: DevicePasscode.run),
        Command(spec: DeviceBiometry.spec, options: DeviceBiometry.Options.init, run: DeviceBiometry.run),
        Command(spec: DeviceSync.spec, options: DeviceSync.Options.init, run: DeviceSync.run),
        Command(spec: InstallCommand.spec, options: InstallCommand.Options.init, run: InstallCommand.run),
        Command(spec: UninstallCommand.spec, options: DevicesRoot.init, run: UninstallCommand.run),
        Command(spec: LaunchCommand.spec, options: LaunchCommand.Options.init, run: LaunchCommand.run),
        Command(spec: KeychainDumpCommand.spec, options: DeviceListing.init, run: KeychainDumpCommand.run),
        Command(spec: ScanSecretsCommand.spec, options: ScanSecretsCommand.Options.init, run: ScanSecretsCommand.run),
        Command(spec: MutantsCommand.spec, options: MutantsOptions.init, run: MutantsCommand.run),
    ]

    static var specs: [CommandSpec] { all.map(\.spec) }

    /// First words that only name a group of subcommands.
    static let groups: Set<String> = ["device", "entitlements"]

    /// The command whose words begin `words` (the longest such, so `device create` beats `device`).
    static func command(matching words: [String]) -> Command? {
        all.filter { words.starts(with: $0.spec.path) }.max { $0.spec.path.count < $1.spec.path.count }
    }
}
