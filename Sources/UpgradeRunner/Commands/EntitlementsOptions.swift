/// The options both `entitlements` verbs take for the variables of Xcode `.entitlements` files, from one table so
/// `diff` and `show` cannot drift apart.
enum EntitlementsOptions {
    static let specs = [
        OptionSpec("--team", value: "TEAM", "Team ID for $(AppIdentifierPrefix) in files that are not builds."),
        OptionSpec("--bundle-id", value: "ID", "Bundle id for $(PRODUCT_BUNDLE_IDENTIFIER) in files that are not builds."),
        OptionSpec(
            "--setting", value: "NAME=VALUE", repeats: true,
            "A build setting for $(NAME) and ${NAME}; repeatable; wins over --settings and build manifests."),
        OptionSpec(
            "--settings", value: "FILE", repeats: true,
            "Build settings from an .xcconfig or saved 'xcodebuild -showBuildSettings' output; repeatable."),
    ]

    /// What the options say, as the Entitlements verbs take it.
    struct Values {
        var team: String?
        var bundleID: String?
        var settings: [String]
        var settingsFiles: [String]
    }

    static func values(_ invocation: Invocation) -> Values {
        Values(
            team: invocation.option("--team"), bundleID: invocation.option("--bundle-id"),
            settings: invocation.options("--setting"), settingsFiles: invocation.options("--settings"))
    }
}
