import GateExecution
import GateModel
import SimDevice
import SimRuntime

enum DeviceUpdateOS {
    static let spec = CommandSpec(
        ["device", "update-os"], summary: "Update a device's iOS, keeping its apps and data.",
        arguments: [CommonOptions.device], options: [Options.to, CommonOptions.devicesRoot],
        discussion: """
            Updates the device's runtime to VERSION (newer, or the same), as a user who installs an OS update: apps,
            containers and keychain stay; the device restarts, booted and before first unlock. Later launches answer
            as VERSION does. An older VERSION is refused: iOS does not downgrade in place. Prints the new runtime.
            """)

    /// The options of `device update-os`, read once.
    struct Options {
        static let to = OptionSpec("--to", value: "VERSION", "The iOS version to update to, such as \"iOS 18.0\" (required).")

        var target: String?
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            target = options.value(Self.to)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        guard let text = options.target else { throw UsageError.missingOption("--to VERSION", command: spec.name) }
        guard let runtime = RuntimeVersion(text) else {
            throw UsageError.invalidValue(text, for: "--to", reason: "is not an iOS runtime such as \"iOS 18.0\"")
        }
        let session = try options.devices.session(invocation)
        try session.updateOS(to: runtime)
        invocation.console.output("\(session.udid): \(session.record.runtime), \(session.record.lockState.rawValue)")
        return ExitStatus.pass
    }
}
