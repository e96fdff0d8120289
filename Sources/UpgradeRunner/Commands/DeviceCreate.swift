import Foundation
import SimDevice
import SimRuntime

enum DeviceCreate {
    static let spec = CommandSpec(
        ["device", "create"], summary: "Create a simulated device and print its UDID.",
        arguments: [ArgumentSpec("NAME", "The device's name (several devices may share one; then use UDIDs).")],
        options: [
            OptionSpec("--runtime", value: "VERSION", "The iOS version it runs, such as \"iOS 17.5\" (default: iOS 17.5)."),
            OptionSpec("--device-type", value: "TYPE", "The model name, for information (default: iPhone 15)."),
            OptionSpec("--clock", value: "DATE", "The device clock, ISO 8601 (default: now). The clock does not run."),
            OptionSpec("--udid", value: "UDID", "Use this UDID instead of a random one."),
            CommonOptions.devicesRoot,
        ],
        discussion: """
            Creates <devices root>/<UDID> laid out like a CoreSimulator device: device.json, an empty keychain at
            data/Library/Keychains/keychain-2-debug.db, and the container folders. The device starts shut down.
            """)

    static func run(_ invocation: Invocation) throws -> Int32 {
        var runtime = RuntimeVersion.current
        if let text = invocation.option("--runtime") {
            guard let parsed = RuntimeVersion(text) else {
                throw UsageError.invalidValue(text, for: "--runtime", reason: "is not an iOS version such as \"iOS 17.5\"")
            }
            runtime = parsed
        }
        let clock = try invocation.option("--clock").map { text throws(UsageError) in try ClockText.parse(text, for: "--clock") }
        var udid = UUID().uuidString
        if let given = invocation.option("--udid") {
            guard !given.isEmpty, given.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
                throw UsageError.invalidValue(given, for: "--udid", reason: "may only hold letters, digits and dashes")
            }
            udid = given
        }
        let device = try invocation.deviceSet.create(
            name: invocation.argument("NAME"), runtime: runtime,
            deviceType: invocation.option("--device-type") ?? "iPhone 15", clock: clock, udid: udid)
        invocation.console.output(device.udid)
        return ExitStatus.pass
    }
}
