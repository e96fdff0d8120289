import Entitlements
import SimRuntime
import SimSupervision

extension AppIdentity {
    /// The identity a build installs with, read by the one entitlements reader `entitlements diff` uses: any kind of
    /// entitlements file, its variables (`$(AppIdentifierPrefix)`, build settings) expanded from the build's
    /// manifest, so the groups a diff reports and the groups an installed build gets cannot differ.
    /// - Throws: ``DeviceError/malformedFile(_:reason:)`` naming the file (and key) the reader refused.
    public static func ofBuild(folder: String, bundleID: String) throws(DeviceError) -> AppIdentity {
        try BuildEntitlements(folder: folder, bundleID: bundleID, entitlementsPath: folder).identity
    }
}

/// What a build's entitlements give it on a device: its identity, and the data protection class
/// of the data container an install creates for it.
struct BuildEntitlements {
    var identity: AppIdentity
    /// `com.apple.developer.default-data-protection`; nil when absent (iOS's default class).
    var dataProtection: FileProtection?

    /// - Parameter entitlementsPath: the file a refused data protection value is reported against.
    /// - Throws: ``DeviceError/malformedFile(_:reason:)`` naming the file (and key) the reader refused.
    init(folder: String, bundleID: String, entitlementsPath: String) throws(DeviceError) {
        let loaded: LoadedEntitlements
        do {
            loaded = try EntitlementsLoader.loadBuild(folder: folder, input: folder, variables: XcodeVariables())
        } catch {
            throw .malformedFile(error.file, reason: error.problem)
        }
        try self.init(loaded.entitlements, bundleID: bundleID, entitlementsPath: entitlementsPath)
    }

    /// An app extension's entitlements: `file`, with the build's team and settings (build.json) for
    /// its variables and the extension's own bundle id.
    init(extensionFile file: String, folder: String, bundleID: String) throws(DeviceError) {
        let loaded: LoadedEntitlements
        do {
            let signing = try BuildManifest.Signing.read(folder: folder)
            loaded = try EntitlementsLoader.loadFile(
                file, variables: XcodeVariables(team: signing.team, bundleID: bundleID, settings: signing.settings ?? [:]))
        } catch {
            throw .malformedFile(error.file, reason: error.problem)
        }
        try self.init(loaded.entitlements, bundleID: bundleID, entitlementsPath: file)
    }

    private init(_ entitlements: Entitlements, bundleID: String, entitlementsPath: String) throws(DeviceError) {
        identity = AppIdentity(
            bundleID: bundleID, applicationIdentifier: entitlements.applicationIdentifier,
            keychainAccessGroups: entitlements.keychainAccessGroups, applicationGroups: entitlements.applicationGroups)
        if let value = entitlements.defaultDataProtection {
            guard let protection = FileProtection(rawValue: value) else {
                let classes = FileProtection.allCases.map(\.rawValue).joined(separator: ", ")
                throw .malformedFile(
                    entitlementsPath,
                    reason:
                        "key \(Entitlements.defaultDataProtectionKey) is \"\(value)\", not a data protection class (\(classes))")
            }
            dataProtection = protection
        }
    }
}
