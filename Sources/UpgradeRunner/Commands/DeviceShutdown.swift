import GateExecution
import GateModel
import SimDevice

enum DeviceShutdown {
    static let spec = CommandSpec(
        ["device", "shutdown"], summary: "Shut a device down.",
        arguments: [CommonOptions.device], options: [CommonOptions.devicesRoot],
        discussion: "Shuts the device down. Apps cannot be launched until it boots again, before first unlock or unlocked.")

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        try session.shutdown()
        invocation.console.output("\(session.udid): shutdown")
        return ExitStatus.pass
    }
}
