import Foundation

/// Writes archived build folders (`<builds>/<id>/build.json` and an entitlements plist) for tests
/// and benchmarks, without depending on the modules that read them.
public enum BuildFixture {
    /// Writes `<builds>/<id>/` with a manifest and an XML entitlements file, and returns the folder.
    /// - Parameters:
    ///   - team: the team prefix of `application-identifier` and of the keychain access group.
    ///   - groups: app group ids (`com.apple.security.application-groups`).
    ///   - dataProtection: `com.apple.developer.default-data-protection`, when given.
    @discardableResult
    public static func write(
        in builds: String, id: String, bundleID: String = "com.example.tiny",
        marketingVersion: String = "1.0", buildNumber: String = "100",
        executable: String = "TinyApp", schemaVersion: Int = 1,
        team: String = "TEAM123456", groups: [String] = [], dataProtection: String? = nil, keeps: [String: Any]? = nil,
        accessGroups: [String]? = nil
    ) throws -> String {
        let folder = builds + "/" + id
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var manifest: [String: Any] = [
            "id": id, "bundleID": bundleID, "marketingVersion": marketingVersion, "buildNumber": buildNumber,
            "executable": executable, "schemaVersion": schemaVersion, "entitlements": "App.entitlements",
            "notes": "test fixture",
        ]
        // TinyApp reports build id "tiny" whatever the fixture's id: a stand-in.
        if executable == "TinyApp" && id != "tiny" { manifest["standIn"] = true }
        if let keeps { manifest["keeps"] = keeps }
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: folder + "/build.json"))
        var entitlements: [String: Any] = [
            "application-identifier": "\(team).\(bundleID)",
            "keychain-access-groups": accessGroups ?? ["\(team).\(bundleID)"],
        ]
        if !groups.isEmpty { entitlements["com.apple.security.application-groups"] = groups }
        if let dataProtection { entitlements["com.apple.developer.default-data-protection"] = dataProtection }
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: folder + "/App.entitlements"))
        return folder
    }

    /// Adds an app extension to the build in `folder` (written by ``write(in:id:bundleID:marketingVersion:buildNumber:executable:schemaVersion:team:groups:dataProtection:keeps:)``):
    /// an entry of build.json's `extensions` and its own entitlements file `<name>.entitlements`, whose
    /// `application-identifier` is `<team>.<app bundle id>.<name>`.
    /// - Parameters:
    ///   - accessGroups: its `keychain-access-groups` (nil: only its own, `<team>.<its bundle id>`).
    ///   - fields: extra or replacing fields of its build.json entry.
    public static func addExtension(
        to folder: String, name: String, kind: String = "notification-service", executable: String = "TinyApp",
        team: String = "TEAM123456", accessGroups: [String]? = nil, groups: [String] = [], fields: [String: Any] = [:]
    ) throws {
        let path = folder + "/build.json"
        var manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
        let bundleID = (manifest["bundleID"] as? String ?? "") + "." + name
        var entry: [String: Any] = [
            "name": name, "kind": kind, "executable": executable, "entitlements": name + ".entitlements",
        ]
        entry.merge(fields) { $1 }
        manifest["extensions"] = (manifest["extensions"] as? [Any] ?? []) + [entry]
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: path))
        var entitlements: [String: Any] = [
            "application-identifier": "\(team).\(bundleID)",
            "keychain-access-groups": accessGroups ?? ["\(team).\(bundleID)"],
        ]
        if !groups.isEmpty { entitlements["com.apple.security.application-groups"] = groups }
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: folder + "/" + name + ".entitlements"))
    }

    /// A snapshot of every path under `folder` with its size, to show that a failed command changed nothing.
    public static func tree(_ folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var entries: [String] = []
        while let path = enumerator.nextObject() as? String {
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.size] as? Int) ?? 0
            entries.append("\(path) \(size)")
        }
        return entries.sorted()
    }
}
