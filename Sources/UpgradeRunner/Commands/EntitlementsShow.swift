import Entitlements
import Foundation
import GateExecution
import GateModel

enum EntitlementsShow {
    static let inputArgument = ArgumentSpec(
        "INPUT", "A build id, build folder, .app folder, executable, profile or entitlements file.")
    static let spec = CommandSpec(
        ["entitlements", "show"], summary: "Print a build's entitlements as an XML property list.",
        arguments: [inputArgument],
        options: [CommonOptions.buildsDir] + EntitlementsOptions.specs + [
            Options.info
        ],
        discussion: """
            Reads INPUT as 'entitlements diff' does (Xcode variables expanded, a simulator executable's
            __TEXT,__entitlements section first) and prints the entitlements as the XML property list that
            'codesign -d --entitlements - --xml' prints, so they can be saved as a build's entitlements file;
            scripts/import-app.sh uses it where Apple's tools are missing. Exit code: 0, or 2 on bad input.
            """)

    /// The options of `entitlements show`, read once.
    struct Options {
        static let info = OptionSpec(
            "--info", "For a .app folder: print Info.plist's bundle id, versions and executable as KEY=value lines.")

        var variables: EntitlementsOptions.Values
        var info: Bool

        init(_ options: OptionValues) {
            variables = EntitlementsOptions.Values(options)
            info = options.flag(Self.info)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let variables = options.variables
        let input = invocation.argument(inputArgument)
        if options.info {
            // The .app folder's identity keys as KEY=value lines (a missing key prints KEY=).
            for entry in try AppInfo.read(folder: input).entries {
                invocation.console.output("\(entry.key)=\(entry.value ?? "")")
            }
            return ExitStatus.pass
        }
        let listing = try EntitlementsListing.read(
            input: input, team: variables.team, bundleID: variables.bundleID, buildsRoot: variables.buildsRoot,
            settings: variables.settings, settingsFiles: variables.settingsFiles)
        let plist = listing.propertyList
        invocation.console.output(plist, terminator: plist.hasSuffix("\n") ? "" : "\n")
        for warning in listing.warnings { invocation.console.error("warning: \(warning)") }
        return ExitStatus.pass
    }
}
