import Foundation

/// An app's container folders, as `FileManager` and `NSHomeDirectory()` give them on iOS, and the
/// files of its preferences: the one place the device's paths are spelled, for the platform (app
/// side), the device (installs and launches) and the runner (snapshots, scenarios).
public struct AppContainers: Sendable {
    /// The data container (`NSHomeDirectory()` on iOS).
    public let home: URL
    /// App group id to its shared container, for the groups the app is entitled to.
    public let groups: [String: URL]

    public init(home: URL, groups: [String: URL] = [:]) {
        self.home = home
        self.groups = groups
    }

    public var documents: URL { home.appendingPathComponent(Self.documentsPath, isDirectory: true) }
    public var library: URL { home.appendingPathComponent(Self.libraryPath, isDirectory: true) }
    public var applicationSupport: URL { home.appendingPathComponent(Self.applicationSupportPath, isDirectory: true) }
    public var caches: URL { home.appendingPathComponent(Self.cachesPath, isDirectory: true) }
    public var preferences: URL { home.appendingPathComponent(Self.preferencesPath, isDirectory: true) }
    public var tmp: URL { home.appendingPathComponent(Self.tmpPath, isDirectory: true) }

    /// `containerURL(forSecurityApplicationGroupIdentifier:)`: nil for a group the app is not entitled to.
    public func containerURL(forSecurityApplicationGroupIdentifier group: String) -> URL? { groups[group] }

    /// The property list of preferences domain `domain` in the data container: the app's own
    /// (`UserDefaults.standard`, domain = bundle id) or a suite's that is not an entitled group.
    public func preferencesFile(domain: String) -> URL {
        home.appendingPathComponent(Self.preferencesFilePath(domain: domain), isDirectory: false)
    }

    /// The property list of an entitled app group's preferences (`UserDefaults(suiteName:)`), in
    /// the group's container; nil for a group the app is not entitled to.
    public func groupPreferencesFile(_ group: String) -> URL? {
        groups[group]?.appendingPathComponent(Self.preferencesFilePath(domain: group), isDirectory: false)
    }

    // MARK: Paths inside a container, relative to it

    public static let documentsPath = "Documents"
    public static let libraryPath = "Library"
    public static let applicationSupportPath = "Library/Application Support"
    public static let cachesPath = "Library/Caches"
    public static let preferencesPath = "Library/Preferences"
    public static let tmpPath = "tmp"

    /// `Library/Preferences/<domain>.plist`, in a data container (domain = bundle id or suite name)
    /// or a group's (domain = group id).
    public static func preferencesFilePath(domain: String) -> String { preferencesPath + "/" + domain + ".plist" }

    /// The folders a new data container holds.
    public static let dataFolders = [documentsPath, preferencesPath, cachesPath, applicationSupportPath, tmpPath]
    /// The folders a new app group container holds.
    public static let groupFolders = [preferencesPath, cachesPath]
}
