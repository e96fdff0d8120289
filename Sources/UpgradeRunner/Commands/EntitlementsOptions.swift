import GateExecution
import GateModel
/// The options both `entitlements` verbs take for the variables of Xcode `.entitlements` files, from one table so
/// `diff` and `show` cannot drift apart.
enum EntitlementsOptions {
    static let team = OptionSpec("--team", value: "TEAM", "Team ID for $(AppIdentifierPrefix) in files that are not builds.")
    static let bundleID = OptionSpec(
        "--bundle-id", value: "ID", "Bundle id for $(PRODUCT_BUNDLE_IDENTIFIER) in files that are not builds.")
    static let setting = OptionSpec(
        "--setting", value: "NAME=VALUE", repeats: true,
        "A build setting for $(NAME) and ${NAME}; repeatable; wins over --settings and build manifests.")
    static let settingsFile = OptionSpec(
        "--settings", value: "FILE", repeats: true,
        "Build settings from an .xcconfig or saved 'xcodebuild -showBuildSettings' output; repeatable.")

    static let specs = [team, bundleID, setting, settingsFile]

    /// What the options say, as the Entitlements verbs take it, with `--builds-dir`.
    struct Values {
        var team: String?
        var bundleID: String?
        var settings: [String]
        var settingsFiles: [String]
        /// The builds folder (`--builds-dir`, else the environment's, else `./builds`), absolute.
        var buildsRoot: String

        init(_ options: OptionValues) {
            team = options.value(EntitlementsOptions.team)
            bundleID = options.value(EntitlementsOptions.bundleID)
            settings = options.values(EntitlementsOptions.setting)
            settingsFiles = options.values(EntitlementsOptions.settingsFile)
            buildsRoot = BuildSource.folder(options)
        }
    }
}
