import Foundation
import GateExecution
import GateModel
import SimDevice

enum InstallCommand {
    static let buildArgument = ArgumentSpec("BUILD", "A build id in the builds folder, or a path to a build folder.")
    static let spec = CommandSpec(
        ["install"], summary: "Install a build; over the same bundle id it upgrades in place.",
        arguments: [
            CommonOptions.device, buildArgument,
        ],
        options: [CommonOptions.buildsDir, CommonOptions.products, CommonOptions.devicesRoot],
        discussion: """
            Reads <builds>/<BUILD>/build.json and its entitlements, copies the build (manifest, entitlements and the
            executable product) into a new bundle container and records the sha256 of each. Over an installed app with
            the same bundle id this is an upgrade in place: the data container stays, the bundle gets a new UUID. A lower
            build number is a downgrade, allowed as simctl allows it, and recorded.
            """)

    /// The options of `install`, read once.
    struct Options {
        var source: BuildSource
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            source = BuildSource(options)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let catalog = options.source.catalog
        // The build is checked before the device is touched: a bad build changes nothing.
        let build = try catalog.build(invocation.argument(buildArgument))
        try ExecutableFormat.check(build)
        let session = try options.devices.session(invocation)
        let app = try session.install(build)
        let record = app.record
        var line =
            "\(session.udid): \(record.kind.rawValue) \(record.bundleID) \(record.buildID) "
            + "(\(record.marketingVersion) build \(record.buildNumber))"
        if let replaced = record.replaced {
            line += " over \(replaced.buildID) (\(replaced.marketingVersion) build \(replaced.buildNumber)); data container kept"
        }
        invocation.console.output(line)
        invocation.console.output("executable sha256 \(record.executableSHA256)")
        return ExitStatus.pass
    }
}
