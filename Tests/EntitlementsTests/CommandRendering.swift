import Entitlements

// What `upgrade-runner entitlements diff` and `show` print and how they exit, made from the library's
// values as the command line makes them (Sources/UpgradeRunner/Commands/EntitlementsDiff.swift and
// EntitlementsShow.swift), so these tests read the output a user reads. The commands themselves are
// the command line's (CLITests runs them).

/// The rendered output of a verb.
struct CommandOutput: Equatable {
    let stdout: String
    let stderr: String
    let exitCode: Int32
}

enum EntitlementsDiffCommand {
    typealias Output = CommandOutput

    static func run(
        old: String, new: String, team: String?, bundleID: String?, buildsRoot: String,
        itemCounts: [String: Int]?, json: Bool, settings: [String] = [], settingsFiles: [String] = []
    ) throws(EntitlementsError) -> CommandOutput {
        let report = try EntitlementsComparison.compare(
            old: old, new: new, team: team, bundleID: bundleID, buildsRoot: buildsRoot, itemCounts: itemCounts,
            settings: settings, settingsFiles: settingsFiles)
        return CommandOutput(
            stdout: json ? report.json() : report.text, stderr: "", exitCode: report.verdict == .compatible ? 0 : 1)
    }
}

enum EntitlementsShowCommand {
    static func run(
        input: String, team: String?, bundleID: String?, buildsRoot: String,
        info: Bool, settings: [String] = [], settingsFiles: [String] = []
    ) throws(EntitlementsError) -> CommandOutput {
        if info {
            let lines = try AppInfo.read(folder: input).entries.map { "\($0.key)=\($0.value ?? "")\n" }.joined()
            return CommandOutput(stdout: lines, stderr: "", exitCode: 0)
        }
        let listing = try EntitlementsListing.read(
            input: input, team: team, bundleID: bundleID, buildsRoot: buildsRoot, settings: settings, settingsFiles: settingsFiles
        )
        return CommandOutput(
            stdout: listing.propertyList, stderr: listing.warnings.map { "warning: \($0)\n" }.joined(), exitCode: 0)
    }
}
