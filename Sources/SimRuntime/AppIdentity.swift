import Foundation

/// Who an app is to the keychain: its bundle id and the access groups its entitlements grant.
///
/// The order of ``accessGroups`` is the one securityd builds (behaviour table row 7):
/// `keychain-access-groups` in their order, then `application-identifier`, then
/// `com.apple.security.application-groups`. An item added without an access group lands in the first.
public struct AppIdentity: Hashable, Sendable, Codable {
    public var bundleID: String
    /// `TEAMID.bundleid`, or nil for a process with no keychain entitlement at all.
    public var applicationIdentifier: String?
    public var keychainAccessGroups: [String]
    public var applicationGroups: [String]

    public init(
        bundleID: String, applicationIdentifier: String?,
        keychainAccessGroups: [String] = [], applicationGroups: [String] = []
    ) {
        self.bundleID = bundleID
        self.applicationIdentifier = applicationIdentifier
        self.keychainAccessGroups = keychainAccessGroups
        self.applicationGroups = applicationGroups
    }

    /// The groups this app may read and write, in securityd's order, without repeats.
    public var accessGroups: [String] {
        var seen = Set<String>()
        let ordered = keychainAccessGroups + (applicationIdentifier.map { [$0] } ?? []) + applicationGroups
        return ordered.filter { seen.insert($0).inserted }
    }

    /// The team prefix of the application identifier (`Q7X2K9M4TD` in `Q7X2K9M4TD.com.example.app`).
    public var teamIdentifier: String? {
        applicationIdentifier?.split(separator: ".", maxSplits: 1).first.map(String.init)
    }

    /// The identity SimSecurity uses when nothing configured one: a test host with an
    /// application identifier of its own and no other group, as an unsigned unit-test host has.
    public static let testHost = AppIdentity(
        bundleID: "com.example.simsecurity.testhost",
        applicationIdentifier: "SIMTESTHST.com.example.simsecurity.testhost"
    )

    /// Reads an identity from an entitlements property list (XML or binary).
    /// - Parameters:
    ///   - data: the property list's bytes.
    ///   - bundleID: the app's bundle id; when nil it is taken from `application-identifier`.
    ///   - source: the file name used in error messages.
    public static func fromEntitlements(_ data: Data, bundleID: String? = nil, source: String) throws -> AppIdentity {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw EntitlementsFileError(file: source, reason: "not a property list")
        }
        guard let plist = object as? [String: Any] else {
            throw EntitlementsFileError(file: source, reason: "the property list is not a dictionary")
        }
        func strings(_ key: String) throws -> [String] {
            guard let value = plist[key] else { return [] }
            guard let list = value as? [String] else {
                throw EntitlementsFileError(file: source, reason: "\"\(key)\" is not an array of strings")
            }
            return list
        }
        let appID = plist["application-identifier"] ?? plist["com.apple.application-identifier"]
        if appID != nil, !(appID is String) {
            throw EntitlementsFileError(file: source, reason: "\"application-identifier\" is not a string")
        }
        let appIDString = appID as? String
        let derivedBundle = appIDString?.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init)
        guard let bundle = bundleID ?? derivedBundle else {
            throw EntitlementsFileError(file: source, reason: "no bundle id given and no \"application-identifier\"")
        }
        return AppIdentity(
            bundleID: bundle, applicationIdentifier: appIDString,
            keychainAccessGroups: try strings("keychain-access-groups"),
            applicationGroups: try strings("com.apple.security.application-groups"))
    }

    /// Reads an identity from an entitlements property list file.
    public static func fromEntitlementsFile(_ path: String, bundleID: String? = nil) throws -> AppIdentity {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EntitlementsFileError(file: path, reason: "cannot be read")
        }
        return try fromEntitlements(data, bundleID: bundleID, source: path)
    }
}

/// An entitlements file that cannot be used, with the file and the reason.
public struct EntitlementsFileError: Error, Equatable, CustomStringConvertible {
    public var file: String
    public var reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }
    public var description: String { "\(file): \(reason)" }
}
