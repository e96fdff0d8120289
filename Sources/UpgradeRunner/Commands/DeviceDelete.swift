import GateExecution
import GateModel
import SimDevice

enum DeviceDelete {
    static let spec = CommandSpec(
        ["device", "delete"], summary: "Delete a device and its folder.",
        arguments: [CommonOptions.device], options: [CommonOptions.devicesRoot],
        discussion: "Removes <devices root>/<UDID> entirely. A device in use by another run is not touched.")

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        try session.delete()
        invocation.console.output("\(session.udid): deleted")
        return ExitStatus.pass
    }
}
