import Foundation

/// Reads a `.app` folder: its executable (named by Info.plist's `CFBundleExecutable`), that executable's
/// entitlements, and its `embedded.mobileprovision` when present.
public struct AppBundle: Sendable {
    /// The entitlements of the main executable.
    public let entitlements: Entitlements
    /// `CFBundleIdentifier` from Info.plist, when present.
    public let bundleIdentifier: String?
    /// `CFBundleExecutable` from Info.plist.
    public let executableName: String
    /// Where the entitlements were found, per architecture (`arm64 __TEXT,__entitlements`, ...).
    public let origin: String
    /// The embedded provisioning profile, when the bundle has one.
    public let profile: ProvisioningProfile?
    /// Disagreements between slices, signature and section, or executable and profile.
    public let warnings: [String]

    /// Reads the bundle at `folder` (iOS layout, or macOS's `Contents/` layout).
    /// - Throws: when Info.plist, the executable or the profile cannot be read.
    public static func read(folder: String) throws(EntitlementsError) -> AppBundle {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        let flat = root.appendingPathComponent("Info.plist").path
        let contents = root.appendingPathComponent("Contents")
        let macOS =
            !FileManager.default.fileExists(atPath: flat)
            && FileManager.default.fileExists(atPath: contents.appendingPathComponent("Info.plist").path)
        let infoPath = macOS ? contents.appendingPathComponent("Info.plist").path : flat
        let infoName = (folder as NSString).appendingPathComponent(macOS ? "Contents/Info.plist" : "Info.plist")
        guard let infoData = FileManager.default.contents(atPath: infoPath) else {
            throw EntitlementsError(folder, "no Info.plist: not an app bundle")
        }
        let info = try PropertyListReader.dictionary(from: infoData, file: infoName)
        guard let name = info["CFBundleExecutable"]?.string else {
            throw EntitlementsError(infoName, "CFBundleExecutable is missing or not a string")
        }
        guard !name.isEmpty, !name.contains("/"), name != "..", name != "." else {
            throw EntitlementsError(infoName, "CFBundleExecutable \"\(name)\" is not a file name")
        }
        let executable =
            macOS ? contents.appendingPathComponent("MacOS").appendingPathComponent(name) : root.appendingPathComponent(name)
        let executableName = (folder as NSString).appendingPathComponent(macOS ? "Contents/MacOS/\(name)" : name)
        guard let binary = FileManager.default.contents(atPath: executable.path) else {
            throw EntitlementsError(executableName, "cannot read the executable that CFBundleExecutable names")
        }
        let machO = try MachOFile.read(binary, file: executableName)
        let found = try machO.entitlements(file: executableName)
        var warnings = found.warnings

        let profileFile =
            macOS
            ? contents.appendingPathComponent("embedded.provisionprofile")
            : root.appendingPathComponent("embedded.mobileprovision")
        let profileName = (folder as NSString).appendingPathComponent(
            macOS ? "Contents/embedded.provisionprofile" : "embedded.mobileprovision")
        var profile: ProvisioningProfile?
        if let profileData = FileManager.default.contents(atPath: profileFile.path) {
            let read = try ProvisioningProfile.read(profileData, file: profileName)
            profile = read
            for problem in ProfileAgreement.disagreements(app: found.entitlements, profile: read, macOS: macOS) {
                warnings.append("\(executableName) disagrees with \(profileName): \(problem)")
            }
        }
        return AppBundle(
            entitlements: found.entitlements, bundleIdentifier: info["CFBundleIdentifier"]?.string,
            executableName: name, origin: found.origin, profile: profile, warnings: warnings)
    }
}
