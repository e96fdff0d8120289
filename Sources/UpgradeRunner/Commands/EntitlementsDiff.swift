import Entitlements
import Foundation
import GateExecution
import GateModel
import SimDevice

enum EntitlementsDiff {
    static let newArgument = ArgumentSpec("NEW", "The same kinds as OLD.")
    static let oldArgument = ArgumentSpec(
        "OLD", "A build id, build folder, .app folder, executable, profile or entitlements file.")
    static let spec = CommandSpec(
        ["entitlements", "diff"], summary: "Diff two builds' entitlements and say what it does to the keychain.",
        arguments: [
            oldArgument,
            newArgument,
        ],
        options: [
            CommonOptions.buildsDir
        ] + EntitlementsOptions.specs + [
            Options.device, CommonOptions.json, CommonOptions.devicesRoot,
        ],
        discussion: """
            Compares the two builds key by key and reports access groups the new build can no longer reach, a changed
            team prefix, a changed first group and development-signing markers (see docs/entitlements.md).
            A variable of an .entitlements file that no option or manifest gives is bad input naming the file and key.
            Exit code: 0 when the new build reaches everything the old one could, 1 when not, 2 on bad input.
            """)

    /// The options of `entitlements diff`, read once.
    struct Options {
        static let device = OptionSpec(
            "--device", value: "DEVICE", "Count the items per access group on this device: how many would become unreachable.")

        var variables: EntitlementsOptions.Values
        /// `--device`: the device whose items to count.
        var device: String?
        var devices: DevicesRoot
        var json: Bool

        init(_ options: OptionValues) {
            variables = EntitlementsOptions.Values(options)
            device = options.value(Self.device)
            devices = DevicesRoot(options)
            json = options.flag(CommonOptions.json)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        var counts: [String: Int]?
        if let name = options.device {
            let items = try options.devices.deviceSet.device(name).keychainItems()
            counts = Dictionary(items.map { ($0.accessGroup, 1) }, uniquingKeysWith: +)
        }
        let variables = options.variables
        let report = try EntitlementsComparison.compare(
            old: invocation.argument(oldArgument), new: invocation.argument(newArgument), team: variables.team,
            bundleID: variables.bundleID, buildsRoot: variables.buildsRoot, itemCounts: counts,
            settings: variables.settings, settingsFiles: variables.settingsFiles)
        let text = options.json ? report.json() : report.text
        if !text.isEmpty { invocation.console.output(text, terminator: text.hasSuffix("\n") ? "" : "\n") }
        // 0 when the new build reaches everything the old one could, 1 when not.
        return report.verdict == .compatible ? ExitStatus.pass : ExitStatus.fail
    }
}
