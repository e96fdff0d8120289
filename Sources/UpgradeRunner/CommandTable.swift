/// A command of the tool: its spec and what it does.
struct Command: Sendable {
    let spec: CommandSpec
    let run: @Sendable (Invocation) throws -> Int32
}

/// Every command, in the order the overview lists them.
enum CommandTable {
    static let all: [Command] = [
        Command(spec: GateCommand.spec, run: GateCommand.run),
        Command(spec: RunCommand.spec, run: RunCommand.run),
        Command(spec: ReplayCommand.spec, run: ReplayCommand.run),
        Command(spec: MergeCommand.spec, run: MergeCommand.run),
        Command(spec: BundleCommand.spec, run: BundleCommand.run),
        Command(spec: BuildsCommand.spec, run: BuildsCommand.run),
        Command(spec: EntitlementsDiff.spec, run: EntitlementsDiff.run),
        Command(spec: EntitlementsShow.spec, run: EntitlementsShow.run),
        Command(spec: DeviceCreate.spec, run: DeviceCreate.run),
        Command(spec: DeviceList.spec, run: DeviceList.run),
        Command(spec: DeviceBoot.spec, run: DeviceBoot.run),
        Command(spec: DeviceShutdown.spec, run: DeviceShutdown.run),
        Command(spec: DeviceLock.spec, run: DeviceLock.run),
        Command(spec: DeviceUnlock.spec, run: DeviceUnlock.run),
        Command(spec: DeviceAdvanceClock.spec, run: DeviceAdvanceClock.run),
        Command(spec: DeviceErase.spec, run: DeviceErase.run),
        Command(spec: DeviceDelete.spec, run: DeviceDelete.run),
        Command(spec: InstallCommand.spec, run: InstallCommand.run),
        Command(spec: UninstallCommand.spec, run: UninstallCommand.run),
        Command(spec: LaunchCommand.spec, run: LaunchCommand.run),
        Command(spec: KeychainDumpCommand.spec, run: KeychainDumpCommand.run),
        Command(spec: ScanSecretsCommand.spec, run: ScanSecretsCommand.run),
        Command(spec: MutantsCommand.spec, run: MutantsCommand.run),
    ]

    static var specs: [CommandSpec] { all.map(\.spec) }

    /// First words that only name a group of subcommands.
    static let groups: Set<String> = ["device", "entitlements"]

    /// The command whose words begin `words` (the longest such, so `device create` beats `device`).
    static func command(matching words: [String]) -> Command? {
        all.filter { words.starts(with: $0.spec.path) }.max { $0.spec.path.count < $1.spec.path.count }
    }
}
