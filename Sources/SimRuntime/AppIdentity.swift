/// Who an app is to the keychain: its bundle id and the access groups its entitlements grant.
///
/// The order of ``accessGroups`` is the one securityd builds (behaviour table row 7):
/// `keychain-access-groups` in their order, then `application-identifier`, then
/// `com.apple.security.application-groups`. An item added without an access group lands in the first.
/// A build's identity is read from its entitlements by the Entitlements module (`AppIdentity.ofBuild` in SimDevice),
/// the same reader `entitlements diff` uses; this module only holds it, as every launched process sees it.
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
}
