import GateExecution
import GateModel
import SimDevice

enum DeviceErase {
    static let spec = CommandSpec(
        ["device", "erase"], summary: "Erase a device: every app, container and keychain item.",
        arguments: [CommonOptions.device], options: [CommonOptions.devicesRoot],
        discussion:
            "Factory reset, as simctl erase: the apps, their containers, app group containers and the whole\nkeychain go; the device is shut down. Its name, runtime and clock stay."
    )

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        try session.erase()
        invocation.console.output("\(session.udid): erased")
        return ExitStatus.pass
    }
}
