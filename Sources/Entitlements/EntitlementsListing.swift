import Foundation

/// The entitlements of any input the diff reads, as the XML property list `codesign -d --entitlements - --xml`
/// prints (so a script can save them as a build's entitlements file), with the reader's warnings.
/// `upgrade-runner entitlements show` prints it.
public struct EntitlementsListing: Sendable, Equatable {
    /// The XML property list.
    public let propertyList: String
    /// What the reader noticed on the way (a profile that disagrees, a variable it could not expand), one line each.
    public let warnings: [String]

    /// Reads `input`'s entitlements.
    /// - Parameters:
    ///   - team: Team ID for `$(AppIdentifierPrefix)` in files that are not builds.
    ///   - bundleID: bundle id for `$(PRODUCT_BUNDLE_IDENTIFIER)` likewise.
    ///   - settings: `NAME=VALUE` build settings (`--setting`), which win over every other source.
    ///   - settingsFiles: `.xcconfig` files or `xcodebuild -showBuildSettings` output (`--settings`).
    /// - Throws: bad input, one line naming the input, file or key.
    public static func read(
        input: String, team: String?, bundleID: String?, buildsRoot: String, settings: [String] = [],
        settingsFiles: [String] = []
    ) throws(EntitlementsError) -> EntitlementsListing {
        let variables = try XcodeVariables(team: team, bundleID: bundleID, assignments: settings, files: settingsFiles)
        let loaded = try EntitlementsLoader.load(input, variables: variables, buildsRoot: buildsRoot)
        let xml: Data
        do {
            xml = try PropertyListReader.data(from: loaded.entitlements.values, binary: false)
        } catch {
            throw EntitlementsError(input, "cannot write the property list (\(error))")
        }
        return EntitlementsListing(propertyList: String(decoding: xml, as: UTF8.self), warnings: loaded.warnings)
    }
}
