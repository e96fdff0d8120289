import GateExecution
import GateModel
import SimDevice

enum DeviceBoot {
    static let spec = CommandSpec(
        ["device", "boot"], summary: "Boot a device (unlocked, or before first unlock).",
        arguments: [CommonOptions.device],
        options: [
            Options.beforeFirstUnlock, CommonOptions.devicesRoot,
        ],
        discussion:
            "Boots the device. Like a simulator with no passcode prompt it comes up unlocked, unless\n--before-first-unlock is given."
    )

    /// The options of `device boot`, read once.
    struct Options {
        static let beforeFirstUnlock = OptionSpec(
            "--before-first-unlock", "Stay before first unlock, as a prewarmed launch after a reboot sees it.")

        var beforeFirstUnlock: Bool
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            beforeFirstUnlock = options.flag(Self.beforeFirstUnlock)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let session = try options.devices.session(invocation)
        try session.boot(lockState: options.beforeFirstUnlock ? .beforeFirstUnlock : .unlocked)
        invocation.console.output("\(session.udid): booted, \(session.record.lockState.rawValue)")
        return ExitStatus.pass
    }
}
