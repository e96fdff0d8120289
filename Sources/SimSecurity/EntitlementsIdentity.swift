import Entitlements
import SimRuntime

extension AppIdentity {
    /// The identity an app with the entitlements file at `path` has (any kind of entitlements input
    /// the diff reads), by the one reader every part uses. `bundleID` defaults to the application
    /// identifier without its team prefix.
    /// - Throws: the reader's error, one line naming the file (and key).
    public static func fromEntitlementsFile(_ path: String, bundleID: String? = nil) throws -> AppIdentity {
        let entitlements = try EntitlementsLoader.loadFile(path, variables: XcodeVariables(bundleID: bundleID))
            .entitlements
        let appID = entitlements.applicationIdentifier
        let bundle =
            bundleID ?? appID.map { id in id.firstIndex(of: ".").map { String(id[id.index(after: $0)...]) } ?? id } ?? ""
        return AppIdentity(
            bundleID: bundle, applicationIdentifier: appID, keychainAccessGroups: entitlements.keychainAccessGroups,
            applicationGroups: entitlements.applicationGroups)
    }
}
