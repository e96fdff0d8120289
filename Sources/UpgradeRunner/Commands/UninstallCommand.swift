import GateExecution
import GateModel
import SimDevice

enum UninstallCommand {
    static let spec = CommandSpec(
        ["uninstall"], summary: "Uninstall an app; its keychain items stay.",
        arguments: [CommonOptions.device, CommonOptions.bundleID],
        options: [CommonOptions.devicesRoot],
        discussion:
            "Removes the app's bundle and data containers. Its keychain items and app group containers stay,\nas on iOS: a reinstalled app finds them."
    )

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        try session.uninstall(invocation.argument(CommonOptions.bundleID))
        invocation.console.output(
            "\(session.udid): uninstalled \(invocation.argument(CommonOptions.bundleID)); keychain items kept")
        return ExitStatus.pass
    }
}
