import Foundation

/// The identity keys of a `.app` folder's Info.plist (XML or binary), as a build manifest needs them.
public struct AppInfo: Sendable, Equatable {
    /// `CFBundleIdentifier`.
    public let bundleIdentifier: String?
    /// `CFBundleShortVersionString` (the marketing version).
    public let shortVersion: String?
    /// `CFBundleVersion` (the build number).
    public let version: String?
    /// `CFBundleExecutable`.
    public let executable: String?

    /// The keys in Info.plist's names and order, with their values (nil when absent or not a string).
    public var entries: [(key: String, value: String?)] {
        [
            ("CFBundleIdentifier", bundleIdentifier), ("CFBundleShortVersionString", shortVersion),
            ("CFBundleVersion", version), ("CFBundleExecutable", executable),
        ]
    }

    /// Reads the Info.plist of the bundle at `folder` (iOS layout, or macOS's `Contents/`).
    /// - Throws: one line naming the file when there is no Info.plist or it is not a dictionary.
    public static func read(folder: String) throws(EntitlementsError) -> AppInfo {
        let candidates = ["Info.plist", "Contents/Info.plist"].map { (folder as NSString).appendingPathComponent($0) }
        guard let path = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }),
            let data = FileManager.default.contents(atPath: path)
        else {
            throw EntitlementsError(folder, "no Info.plist: not an app bundle")
        }
        let info = try PropertyListReader.dictionary(from: data, file: path)
        return AppInfo(
            bundleIdentifier: info["CFBundleIdentifier"]?.string,
            shortVersion: info["CFBundleShortVersionString"]?.string,
            version: info["CFBundleVersion"]?.string, executable: info["CFBundleExecutable"]?.string)
    }
}
