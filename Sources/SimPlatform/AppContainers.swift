import Foundation

/// An app's container folders, as `FileManager` and `NSHomeDirectory()` give them on iOS.
public struct AppContainers: Sendable {
    /// The data container (`NSHomeDirectory()` on iOS).
    public let home: URL
    /// App group id to its shared container, for the groups the app is entitled to.
    public let groups: [String: URL]

    public init(home: URL, groups: [String: URL] = [:]) {
        self.home = home
        self.groups = groups
    }

    public var documents: URL { home.appendingPathComponent("Documents", isDirectory: true) }
    public var library: URL { home.appendingPathComponent("Library", isDirectory: true) }
    public var applicationSupport: URL { library.appendingPathComponent("Application Support", isDirectory: true) }
    public var caches: URL { library.appendingPathComponent("Caches", isDirectory: true) }
    public var preferences: URL { library.appendingPathComponent("Preferences", isDirectory: true) }
    public var tmp: URL { home.appendingPathComponent("tmp", isDirectory: true) }

    /// `containerURL(forSecurityApplicationGroupIdentifier:)`: nil for a group the app is not entitled to.
    public func containerURL(forSecurityApplicationGroupIdentifier group: String) -> URL? { groups[group] }
}
