/// What an entitlements change does to the keychain, as a value: two inputs in, the ``DiffReport`` out.
/// `upgrade-runner entitlements diff` prints the report and turns its verdict into the exit code; the gate's
/// entitlements scenario judges it. Bad input is thrown, one line naming it.
public enum EntitlementsComparison {
    /// Compares `old` and `new`, each a build id (under `buildsRoot`), a build folder, a `.app` folder, an
    /// executable, a provisioning profile or an entitlements file (XML, binary, codesign output, Xcode).
    /// - Parameters:
    ///   - team: Team ID for `$(AppIdentifierPrefix)` in files that are not builds (a manifest's own team wins).
    ///   - bundleID: bundle id for `$(PRODUCT_BUNDLE_IDENTIFIER)` likewise.
    ///   - itemCounts: items per access group on a device, when one was given.
    ///   - settings: `NAME=VALUE` build settings (`--setting`), which win over every other source.
    ///   - settingsFiles: `.xcconfig` files or `xcodebuild -showBuildSettings` output (`--settings`).
    /// - Throws: bad input, one line naming the input, file or key (or the access group of a negative count).
    public static func compare(
        old: String, new: String, team: String?, bundleID: String?, buildsRoot: String,
        itemCounts: [String: Int]?, settings: [String] = [], settingsFiles: [String] = []
    ) throws(EntitlementsError) -> DiffReport {
        if let negative = itemCounts?.keys.sorted().first(where: { (itemCounts?[$0] ?? 0) < 0 }) {
            throw EntitlementsError(problem: "item count for access group \(negative) is negative")
        }
        let variables = try XcodeVariables(team: team, bundleID: bundleID, assignments: settings, files: settingsFiles)
        let before = try EntitlementsLoader.load(old, variables: variables, buildsRoot: buildsRoot)
        let after = try EntitlementsLoader.load(new, variables: variables, buildsRoot: buildsRoot)
        // Two builds' extensions are compared too (build.json's `extensions`); other inputs have none.
        let extensions = try ExtensionDiff.compare(
            oldFolder: ExtensionDiff.buildFolder(old, buildsRoot: buildsRoot),
            newFolder: ExtensionDiff.buildFolder(new, buildsRoot: buildsRoot), variables: variables, itemCounts: itemCounts)
        return DiffReport(old: before, new: after, itemCounts: itemCounts, extensions: extensions)
    }
}
