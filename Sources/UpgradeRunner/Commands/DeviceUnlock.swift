import GateExecution
import GateModel
import SimDevice

enum DeviceUnlock {
    static let spec = CommandSpec(
        ["device", "unlock"], summary: "Unlock a booted device.",
        arguments: [CommonOptions.device], options: [CommonOptions.devicesRoot],
        discussion:
            "Unlocks the device, as if the user entered the passcode. An app waiting for protected data\n(a prewarmed launch) sees it become available."
    )

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        try session.unlock()
        invocation.console.output("\(session.udid): \(session.record.lockState.rawValue)")
        return ExitStatus.pass
    }
}
