import GateExecution
import GateModel
import SimDevice

enum DeviceLock {
    static let spec = CommandSpec(
        ["device", "lock"], summary: "Lock a booted device.",
        arguments: [CommonOptions.device], options: [CommonOptions.devicesRoot],
        discussion: """
            Locks the device: files with complete protection and ...WhenUnlocked keychain items become unavailable.
            A device not unlocked since boot stays before first unlock.
            """)

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        try session.lock()
        invocation.console.output("\(session.udid): \(session.record.lockState.rawValue)")
        return ExitStatus.pass
    }
}
