import GateExecution
import GateModel
import SimDevice

enum DevicePasscode {
    static let spec = CommandSpec(
        ["device", "passcode"], summary: "Turn a device's passcode off (or on again), as the user does in Settings.",
        arguments: [CommonOptions.device],
        options: [Options.remove, Options.set, CommonOptions.devicesRoot],
        discussion: """
            --remove: the device has no passcode, and every WhenPasscodeSetThisDeviceOnly (akpu) keychain item of every
            app is deleted, as iOS deletes them; adding one answers errSecAuthFailed until a passcode is set again.
            --set: a passcode is set again (the deleted items do not come back). Prints how many items went.
            """)

    /// The options of `device passcode`, read once.
    struct Options {
        static let remove = OptionSpec("--remove", "Turn the passcode off: WhenPasscodeSetThisDeviceOnly items are deleted.")
        static let set = OptionSpec("--set", "Set a passcode again.")

        var remove: Bool
        var set: Bool
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            remove = options.flag(Self.remove)
            set = options.flag(Self.set)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        guard options.remove != options.set else {
            throw UsageError.missingOption("--remove or --set (one of them)", command: spec.name)
        }
        let session = try options.devices.session(invocation)
        if options.remove {
            let removed = try session.removePasscode()
            invocation.console.output(
                "\(session.udid): passcode removed; \(removed) WhenPasscodeSetThisDeviceOnly keychain item(s) deleted")
        } else {
            try session.setPasscode()
            invocation.console.output("\(session.udid): passcode set")
        }
        return ExitStatus.pass
    }
}

enum DeviceBiometry {
    static let spec = CommandSpec(
        ["device", "biometry"], summary: "Change a device's biometric enrollment (a finger added, Face ID enrolled again).",
        arguments: [CommonOptions.device],
        options: [Options.change, CommonOptions.devicesRoot],
        discussion: """
            --change: the enrollment generation moves on, and every keychain item whose access control holds
            .biometryCurrentSet (without a passcode alternative) is invalidated: a read of its secret answers
            errSecAuthFailed from then on. Prints the new generation.
            """)

    /// The options of `device biometry`, read once.
    struct Options {
        static let change = OptionSpec("--change", "A finger added or removed, or Face ID enrolled again.")

        var change: Bool
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            change = options.flag(Self.change)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        guard options.change else { throw UsageError.missingOption("--change", command: spec.name) }
        let session = try options.devices.session(invocation)
        let generation = try session.changeBiometry()
        invocation.console.output(
            "\(session.udid): biometry changed (enrollment generation \(generation)); .biometryCurrentSet items invalidated")
        return ExitStatus.pass
    }
}
