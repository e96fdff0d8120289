import SimDevice

enum DeviceBoot {
    static let spec = CommandSpec(
        ["device", "boot"], summary: "Boot a device (unlocked, or before first unlock).",
        arguments: [CommonOptions.device],
        options: [
            OptionSpec("--before-first-unlock", "Stay before first unlock, as a prewarmed launch after a reboot sees it."),
            CommonOptions.devicesRoot,
        ],
        discussion:
            "Boots the device. Like a simulator with no passcode prompt it comes up unlocked, unless\n--before-first-unlock is given."
    )

    static func run(_ invocation: Invocation) throws -> Int32 {
        let session = try invocation.session()
        try session.boot(lockState: invocation.flag("--before-first-unlock") ? .beforeFirstUnlock : .unlocked)
        invocation.console.output("\(session.udid): booted, \(session.record.lockState.rawValue)")
        return ExitStatus.pass
    }
}
