import Foundation

/// `upgrade-runner entitlements show INPUT` as a pure function: the entitlements of any input the diff reads,
/// printed as the XML property list `codesign -d --entitlements - --xml` prints (so a script can save them as a
/// build's entitlements file), or an app's Info.plist identity keys.
public enum EntitlementsShowCommand {
    /// Reads `input` and prints its entitlements as an XML property list.
    /// - Parameters:
    ///   - team: Team ID for `$(AppIdentifierPrefix)` in files that are not builds.
    ///   - bundleID: bundle id for `$(PRODUCT_BUNDLE_IDENTIFIER)` likewise.
    ///   - info: print the `.app` folder's `CFBundleIdentifier`, `CFBundleShortVersionString`, `CFBundleVersion`
    ///     and `CFBundleExecutable` as `KEY=value` lines (a missing key prints `KEY=`) instead.
    ///   - settings: `NAME=VALUE` build settings (`--setting`), which win over every other source.
    ///   - settingsFiles: `.xcconfig` files or `xcodebuild -showBuildSettings` output (`--settings`).
    /// - Returns: the property list (or `KEY=value` lines), the reader's warnings, and exit code 0.
    /// - Throws: bad input, one line naming the input, file or key; the command line words it and picks its exit code
    ///   (`ExitStatus.report` in UpgradeRunner).
    public static func run(
        input: String, team: String?, bundleID: String?, buildsRoot: String,
        info: Bool, settings: [String] = [], settingsFiles: [String] = []
    ) throws(EntitlementsError) -> EntitlementsDiffCommand.Output {
        if info {
            let app = try AppInfo.read(folder: input)
            let lines = app.entries.map { "\($0.key)=\($0.value ?? "")\n" }.joined()
            return .init(stdout: lines, stderr: "", exitCode: 0)
        }
        let variables = try XcodeVariables(team: team, bundleID: bundleID, assignments: settings, files: settingsFiles)
        let loaded = try EntitlementsLoader.load(input, variables: variables, buildsRoot: buildsRoot)
        let xml: Data
        do {
            xml = try PropertyListReader.data(from: loaded.entitlements.values, binary: false)
        } catch {
            throw EntitlementsError(input, "cannot write the property list (\(error))")
        }
        let warnings = loaded.warnings.map { "warning: \($0)\n" }.joined()
        return .init(stdout: String(decoding: xml, as: UTF8.self), stderr: warnings, exitCode: 0)
    }
}
