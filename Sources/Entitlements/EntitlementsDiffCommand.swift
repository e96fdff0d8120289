/// `upgrade-runner entitlements diff OLD NEW` as a pure function the command line calls: inputs in, the report and
/// its verdict out (0 compatible, 1 incompatible). Bad input is thrown, one line naming it: the command line words it
/// and picks its exit code as for every other command (`ExitStatus.report` in UpgradeRunner), so this library has
/// no exit code of its own for it.
public enum EntitlementsDiffCommand {
    /// What the verb prints and how it exits.
    public struct Output: Sendable, Equatable {
        /// The report (text or JSON).
        public let stdout: String
        /// Warnings for standard error, one `warning: ` line each, else empty.
        public let stderr: String
        /// 0 when the new build reaches everything the old one could, 1 when not.
        public let exitCode: Int32
    }

    /// Compares `old` and `new`, each a build id (under `buildsRoot`), a build folder, a `.app` folder, an
    /// executable, a provisioning profile or an entitlements file (XML, binary, codesign output, Xcode).
    /// - Parameters:
    ///   - team: Team ID for `$(AppIdentifierPrefix)` in files that are not builds (a manifest's own team wins).
    ///   - bundleID: bundle id for `$(PRODUCT_BUNDLE_IDENTIFIER)` likewise.
    ///   - itemCounts: items per access group on a device, when one was given.
    ///   - json: print JSON with sorted keys instead of text.
    ///   - settings: `NAME=VALUE` build settings (`--setting`), which win over every other source.
    ///   - settingsFiles: `.xcconfig` files or `xcodebuild -showBuildSettings` output (`--settings`).
    /// - Throws: bad input, one line naming the input, file or key (or the access group of a negative count).
    public static func run(
        old: String, new: String, team: String?, bundleID: String?, buildsRoot: String,
        itemCounts: [String: Int]?, json: Bool, settings: [String] = [], settingsFiles: [String] = []
    ) throws(EntitlementsError) -> Output {
        if let negative = itemCounts?.keys.sorted().first(where: { (itemCounts?[$0] ?? 0) < 0 }) {
            throw EntitlementsError(problem: "item count for access group \(negative) is negative")
        }
        let variables = try XcodeVariables(team: team, bundleID: bundleID, assignments: settings, files: settingsFiles)
        let before = try EntitlementsLoader.load(old, variables: variables, buildsRoot: buildsRoot)
        let after = try EntitlementsLoader.load(new, variables: variables, buildsRoot: buildsRoot)
        let report = DiffReport(old: before, new: after, itemCounts: itemCounts)
        return Output(stdout: json ? report.json() : report.text, stderr: "", exitCode: report.exitCode)
    }
}
