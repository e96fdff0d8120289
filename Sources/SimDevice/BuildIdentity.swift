import Entitlements
import SimRuntime

extension AppIdentity {
    /// The identity a build installs with, read by the one entitlements reader `entitlements diff` uses: any kind of
    /// entitlements file, its variables (`$(AppIdentifierPrefix)`, build settings) expanded from the build's
    /// manifest, so the groups a diff reports and the groups an installed build gets cannot differ.
    /// - Throws: ``DeviceError/malformedFile(_:reason:)`` naming the file (and key) the reader refused.
    public static func ofBuild(folder: String, bundleID: String) throws(DeviceError) -> AppIdentity {
        let entitlements: Entitlements
        do {
            entitlements = try EntitlementsLoader.loadBuild(folder: folder, input: folder, variables: XcodeVariables())
                .entitlements
        } catch {
            throw .malformedFile(error.file, reason: error.problem)
        }
        return AppIdentity(
            bundleID: bundleID, applicationIdentifier: entitlements.applicationIdentifier,
            keychainAccessGroups: entitlements.keychainAccessGroups, applicationGroups: entitlements.applicationGroups)
    }
}
