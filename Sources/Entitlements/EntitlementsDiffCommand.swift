/// `upgrade-runner entitlements diff OLD NEW` as a pure function the command line calls: inputs in, text and an
/// exit code out (0 compatible, 1 incompatible, 2 bad input).
public enum EntitlementsDiffCommand {
    /// What the verb prints and how it exits.
    public struct Output: Sendable, Equatable {
        /// The report (text or JSON).
        public let stdout: String
        /// A one-line error for bad input, else empty.
        public let stderr: String
        /// 0 when the new build reaches everything the old one could, 1 when not, 2 on bad input.
        public let exitCode: Int32
    }

    /// Exit code for bad input or usage.
    public static let badInput: Int32 = 2

    /// Compares `old` and `new`, each a build id (under `buildsRoot`), a build folder, a `.app` folder, an
    /// executable, a provisioning profile or an entitlements file (XML, binary, codesign output, Xcode).
    /// - Parameters:
    ///   - team: Team ID for `$(AppIdentifierPrefix)` in files that are not builds (a manifest's own team wins).
    ///   - bundleID: bundle id for `$(PRODUCT_BUNDLE_IDENTIFIER)` likewise.
    ///   - itemCounts: items per access group on a device, when one was given.
    ///   - json: print JSON with sorted keys instead of text.
    ///   - settings: `NAME=VALUE` build settings (`--setting`), which win over every other source.
    ///   - settingsFiles: `.xcconfig` files or `xcodebuild -showBuildSettings` output (`--settings`).
    public static func run(
        old: String, new: String, team: String?, bundleID: String?, buildsRoot: String,
        itemCounts: [String: Int]?, json: Bool, settings: [String] = [], settingsFiles: [String] = []
    ) -> Output {
        if let negative = itemCounts?.keys.sorted().first(where: { (itemCounts?[$0] ?? 0) < 0 }) {
            return Output(stdout: "", stderr: "error: item count for access group \(negative) is negative\n", exitCode: badInput)
        }
        let report: DiffReport
        do {
            let variables = try XcodeVariables(team: team, bundleID: bundleID, assignments: settings, files: settingsFiles)
            let before = try EntitlementsLoader.load(old, variables: variables, buildsRoot: buildsRoot)
            let after = try EntitlementsLoader.load(new, variables: variables, buildsRoot: buildsRoot)
            report = DiffReport(old: before, new: after, itemCounts: itemCounts)
        } catch {
            return Output(stdout: "", stderr: "error: \(error.description)\n", exitCode: badInput)
        }
        return Output(stdout: json ? report.json() : report.text, stderr: "", exitCode: report.exitCode)
    }
}
