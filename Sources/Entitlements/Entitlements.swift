import UpgradeContract
/// A build's entitlements: the dictionary as signed, with typed accessors for the keys the keychain reads.
public struct Entitlements: Sendable, Equatable {
    /// Every key and value, as read.
    public let values: [String: PlistValue]

    /// Wraps a dictionary of entitlements.
    public init(_ values: [String: PlistValue]) {
        self.values = values
    }

    /// Wraps `values` after checking that the keys the keychain reads have the types securityd expects, so a
    /// mistyped list is bad input rather than a build that silently has no access groups.
    /// - Parameter place: where in `file` the values came from (a Mach-O slice), when it is not the whole file.
    /// - Throws: one line naming the file, the place and the key.
    public init(checking values: [String: PlistValue], file: String, place: String? = nil) throws(EntitlementsError) {
        let prefix = place.map { "\($0): " } ?? ""
        for key in Self.stringKeys {
            guard let value = values[key], value.string == nil else { continue }
            throw EntitlementsError(file, "\(prefix)key \(key) is \(value.typeNameWithArticle), not a string")
        }
        for key in Self.listKeys {
            guard let value = values[key] else { continue }
            guard let elements = value.array else {
                throw EntitlementsError(file, "\(prefix)key \(key) is \(value.typeNameWithArticle), not an array of strings")
            }
            if let index = elements.firstIndex(where: { $0.string == nil }) {
                throw EntitlementsError(
                    file, "\(prefix)key \(key) element \(index) is \(elements[index].typeNameWithArticle), not a string")
            }
        }
        // A group is a folder of the device (`groups/<id>`): `../../x` is refused as every platform refuses it; the
        // rest is the rules of the platform the entitlements are for (macOS's team-prefixed groups are valid there).
        let checked = Entitlements(values)
        for (index, group) in (values["com.apple.security.application-groups"]?.array ?? []).enumerated() {
            guard let id = group.string,
                let reason = AppGroupID.problem(id, platform: checked.platform, team: checked.teamIdentifier)
            else { continue }
            throw EntitlementsError(
                file, "\(prefix)key com.apple.security.application-groups element \(index) \"\(id.prefix(80))\" \(reason)")
        }
        self.values = values
    }

    static let stringKeys = [
        "application-identifier", "com.apple.application-identifier", Self.defaultDataProtectionKey,
    ]
    static let listKeys = ["keychain-access-groups", "com.apple.security.application-groups"]

    /// The platform these entitlements are for, as their keys tell: `com.apple.application-identifier` or an App
    /// Sandbox key (`com.apple.security.*` other than application groups) is macOS, `application-identifier` iOS;
    /// an Xcode `.entitlements` file with neither is `.unknown`, and app groups of either platform's form are taken.
    public var platform: ApplePlatform {
        let sandboxKey = values.keys.contains {
            $0.hasPrefix("com.apple.security.") && $0 != "com.apple.security.application-groups"
                && $0 != "com.apple.security.get-task-allow"
        }
        if values["com.apple.application-identifier"] != nil || sandboxKey { return .macOS }
        if values["application-identifier"] != nil { return .iOS }
        return .unknown
    }

    /// `application-identifier` (iOS), else `com.apple.application-identifier` (macOS): `TEAMID.bundle.id`.
    public var applicationIdentifier: String? {
        values["application-identifier"]?.string ?? values["com.apple.application-identifier"]?.string
    }

    /// The application identifier's prefix (before the first dot), else `com.apple.developer.team-identifier`.
    public var teamIdentifier: String? {
        if let appID = applicationIdentifier, let dot = appID.firstIndex(of: "."), dot > appID.startIndex {
            return String(appID[appID.startIndex..<dot])
        }
        return values["com.apple.developer.team-identifier"]?.string
    }

    /// The key of the data protection class a new app container takes (iOS's default,
    /// `NSFileProtectionCompleteUntilFirstUserAuthentication`, when it is absent).
    public static let defaultDataProtectionKey = "com.apple.developer.default-data-protection"

    /// `com.apple.developer.default-data-protection` (`NSFileProtectionComplete`, ...), when present.
    public var defaultDataProtection: String? { values[Self.defaultDataProtectionKey]?.string }

    /// `keychain-access-groups`, in order.
    public var keychainAccessGroups: [String] { values["keychain-access-groups"]?.strings ?? [] }

    /// `com.apple.security.application-groups`, in order.
    public var applicationGroups: [String] { values["com.apple.security.application-groups"]?.strings ?? [] }

    /// The access groups securityd grants, in its order: keychain-access-groups, the application identifier, then
    /// the application groups, without duplicates; an item added without `kSecAttrAccessGroup` lands in the first.
    public var accessGroups: [String] {
        var seen = Set<String>()
        var groups: [String] = []
        for group in keychainAccessGroups + (applicationIdentifier.map { [$0] } ?? []) + applicationGroups
        where seen.insert(group).inserted {
            groups.append(group)
        }
        return groups
    }

    /// `get-task-allow` (or macOS's `com.apple.security.get-task-allow`), when present.
    public var getTaskAllow: Bool? {
        values["get-task-allow"]?.bool ?? values["com.apple.security.get-task-allow"]?.bool
    }

    /// `aps-environment` (or macOS's `com.apple.developer.aps-environment`), when present.
    public var apsEnvironment: String? {
        values["aps-environment"]?.string ?? values["com.apple.developer.aps-environment"]?.string
    }

    /// The markers of a development signature present in these entitlements, as `key value` phrases.
    public var developmentMarkers: [String] {
        var markers: [String] = []
        if getTaskAllow == true { markers.append("get-task-allow true") }
        if apsEnvironment == "development" { markers.append("aps-environment development") }
        return markers
    }

    /// Whether `group` is granted by one of `patterns`, which may end in a `*` wildcard as profiles' do.
    static func grants(_ patterns: [String], _ group: String) -> Bool {
        patterns.contains { pattern in
            if pattern == group { return true }
            guard pattern.hasSuffix("*") else { return false }
            return group.hasPrefix(pattern.dropLast())
        }
    }
}
