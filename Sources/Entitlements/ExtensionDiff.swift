import Foundation
import UpgradeContract

/// One app extension's side of an entitlements diff (issue 39): the extension of the same name in the old
/// and the new build (build.json's `extensions`), its access groups on each side, and what the change does to
/// the keychain for it. An extension that loses the shared access group is an error naming the extension.
public struct ExtensionDiff: Sendable, Equatable, Encodable {
    /// The extension's name in build.json.
    public let name: String
    /// Its access groups in the old build; nil when the old build does not ship it.
    public let oldAccessGroups: [String]?
    /// Its access groups in the new build; nil when the new build no longer ships it.
    public let newAccessGroups: [String]?
    /// The keychain findings for this extension, each message naming it.
    public let findings: [Finding]

    /// The extensions of two build folders compared by name, in the new build's order then the ones it dropped;
    /// nil when neither build declares `extensions` (a diff of builds without extensions is unchanged).
    static func compare(
        oldFolder: String?, newFolder: String?, variables: XcodeVariables, itemCounts: [String: Int]?
    ) throws(EntitlementsError) -> [ExtensionDiff]? {
        let old = try oldFolder.flatMap { (folder) throws(EntitlementsError) in try load(folder, variables) }
        let new = try newFolder.flatMap { (folder) throws(EntitlementsError) in try load(folder, variables) }
        guard old != nil || new != nil else { return nil }
        let before = old ?? [], after = new ?? []
        var diffs: [ExtensionDiff] = []
        for (name, entitlements) in after {
            guard let previous = before.first(where: { $0.0 == name })?.1 else {
                diffs.append(
                    ExtensionDiff(name: name, oldAccessGroups: nil, newAccessGroups: entitlements.accessGroups, findings: []))
                continue
            }
            let findings = KeychainImpact.findings(old: previous, new: entitlements, itemCounts: itemCounts).map {
                Finding($0.id, $0.severity, subject: $0.subject, items: $0.items, "extension \(name): " + $0.message)
            }
            diffs.append(
                ExtensionDiff(
                    name: name, oldAccessGroups: previous.accessGroups, newAccessGroups: entitlements.accessGroups,
                    findings: findings))
        }
        for (name, entitlements) in before where !after.contains(where: { $0.0 == name }) {
            diffs.append(
                ExtensionDiff(name: name, oldAccessGroups: entitlements.accessGroups, newAccessGroups: nil, findings: []))
        }
        return diffs
    }

    /// Each extension's entitlements of the build in `folder`, with the build's team and settings and the
    /// extension's bundle id for the variables; nil when the manifest has no `extensions`.
    static func load(_ folder: String, _ variables: XcodeVariables) throws(EntitlementsError) -> [(String, Entitlements)]? {
        struct Declared: Decodable { var extensions: [BuildExtension]? }
        let path = (folder as NSString).appendingPathComponent(BuildManifest.fileName)
        let signing = try BuildManifest.Signing.read(folder: folder)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let declared: [BuildExtension]?
        do {
            declared = try JSONDecoder().decode(Declared.self, from: data).extensions
        } catch {
            throw EntitlementsError(path, "field \"extensions\" is not a list of extensions")
        }
        guard let declared else { return nil }
        var loaded: [(String, Entitlements)] = []
        for (index, item) in declared.enumerated() {
            let file = (folder as NSString).appendingPathComponent(item.entitlements)
            guard !item.entitlements.contains("/"), FileManager.default.fileExists(atPath: file) else {
                throw EntitlementsError(path, "field \"extensions[\(index)].entitlements\": no such file \(item.entitlements)")
            }
            let extensionVariables = XcodeVariables(
                team: signing.team ?? variables.team, bundleID: item.resolvedBundleID(appBundleID: signing.bundleID),
                settings: (signing.settings ?? [:]).merging(variables.settings, uniquingKeysWith: { $1 }))
            let inner = try EntitlementsLoader.load(file, variables: extensionVariables, buildsRoot: "")
            loaded.append((item.name, inner.entitlements))
        }
        return loaded
    }

    /// The build folder `input` names (a folder holding build.json, or a build id under `buildsRoot`), or nil.
    static func buildFolder(_ input: String, buildsRoot: String) -> String? {
        let manager = FileManager.default
        if manager.fileExists(atPath: (input as NSString).appendingPathComponent(BuildManifest.fileName)) { return input }
        let folder = (buildsRoot as NSString).appendingPathComponent(input)
        if !input.contains("/"), !input.isEmpty, !buildsRoot.isEmpty,
            manager.fileExists(atPath: (folder as NSString).appendingPathComponent(BuildManifest.fileName))
        {
            return folder
        }
        return nil
    }
}
