import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

enum DeviceCreate {
    static let nameArgument = ArgumentSpec("NAME", "The device's name (several devices may share one; then use UDIDs).")
    static let spec = CommandSpec(
        ["device", "create"], summary: "Create a simulated device and print its UDID.",
        arguments: [nameArgument],
        options: [Options.runtime, Options.deviceType, Options.clock, Options.udid, CommonOptions.devicesRoot],
        discussion: """
            Creates <devices root>/<UDID> laid out like a CoreSimulator device: device.json, an empty keychain at
            data/Library/Keychains/keychain-2-debug.db, and the container folders. The device starts shut down.
            """)

    /// The options of `device create`, read and checked once.
    struct Options {
        static let runtime = OptionSpec(
            "--runtime", value: "VERSION", "The iOS version it runs, such as \"iOS 17.5\" (default: iOS 17.5).")
        static let deviceType = OptionSpec(
            "--device-type", value: "TYPE", "The model name, for information (default: iPhone 15).")
        static let clock = OptionSpec(
            "--clock", value: "DATE", "The device clock, ISO 8601 (default: now). The clock does not run.")
        static let udid = OptionSpec("--udid", value: "UDID", "Use this UDID instead of a random one.")

        var runtime = RuntimeVersion.current
        var deviceType: String
        var clock: Date?
        var udid = UUID().uuidString
        var devices: DevicesRoot

        init(_ options: OptionValues) throws(UsageError) {
            if let text = options.value(Self.runtime) {
                guard let parsed = RuntimeVersion(text) else {
                    throw .invalidValue(text, for: "--runtime", reason: "is not an iOS version such as \"iOS 17.5\"")
                }
                runtime = parsed
            }
            clock = try options.value(Self.clock).map { text throws(UsageError) in try ClockText.parse(text, for: "--clock") }
            if let given = options.value(Self.udid) {
                guard !given.isEmpty, given.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                    throw .invalidValue(given, for: "--udid", reason: "may only hold letters, digits and dashes")
                }
                udid = given
            }
            deviceType = options.value(Self.deviceType) ?? "iPhone 15"
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let device = try options.devices.deviceSet.create(
            name: invocation.argument(nameArgument), runtime: options.runtime, deviceType: options.deviceType,
            clock: options.clock, udid: options.udid)
        invocation.console.output(device.udid)
        return ExitStatus.pass
    }
}
