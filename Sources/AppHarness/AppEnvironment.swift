import Foundation
import SimPlatform
import SimRuntime

/// `UserDefaults.standard` as app code sees it: the one adapter every preference read and write of
/// a build goes through, so the same migration code runs on iOS (backed by `UserDefaults`) and on a
/// simulated device (backed by SimPlatform's ``Preferences``, whose writes pass through the seam).
public protocol AppDefaults: AnyObject, Sendable {
    /// The value for `key`, the launch arguments' domain over the stored one.
    func object(forKey key: String) -> Any?
    /// As `UserDefaults.string(forKey:)` (a stored number reads as its text).
    func string(forKey key: String) -> String?
    /// As `UserDefaults.bool(forKey:)`.
    func bool(forKey key: String) -> Bool
    /// Stores `value` (nil removes it); false when the store refused the write.
    @discardableResult func set(_ value: Any?, forKey key: String) -> Bool
    /// Removes the stored value; false when the store refused.
    @discardableResult func removeObject(forKey key: String) -> Bool
    /// The stored values only, without the argument domain
    /// (`UserDefaults.standard.persistentDomain(forName: bundleID)` on iOS).
    func persistentDomain() -> [String: Any]
    /// As `UserDefaults.data(forKey:)`.
    func data(forKey key: String) -> Data?
    /// As `UserDefaults.integer(forKey:)`.
    func integer(forKey key: String) -> Int
    /// As `UserDefaults.dictionary(forKey:)`.
    func dictionary(forKey key: String) -> [String: Any]?
    /// As `UserDefaults.array(forKey:)`.
    func array(forKey key: String) -> [Any]?
}

extension AppDefaults {
    public func data(forKey key: String) -> Data? { object(forKey: key) as? Data }
    public func integer(forKey key: String) -> Int { (object(forKey: key) as? NSNumber)?.intValue ?? 0 }
    public func dictionary(forKey key: String) -> [String: Any]? { object(forKey: key) as? [String: Any] }
    public func array(forKey key: String) -> [Any]? { object(forKey: key) as? [Any] }
}

extension Preferences: AppDefaults {}

/// A file operation that failed, with the POSIX error code it answered (`EPERM` while protected
/// data is unavailable, `ENOENT`, `EIO`, or a code injected by a fault plan).
public struct AppFileError: Error, Equatable, CustomStringConvertible {
    /// The file, relative to the app's container where possible.
    public var path: String
    public var code: Int32

    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    public var description: String { "\(path): errno \(code)" }
}

/// `FileManager` as app code sees it, for the files a migration reads, writes and removes.
public protocol AppFiles: Sendable {
    /// Writes `data` atomically with the platform's default data protection.
    func write(_ data: Data, to url: URL) throws(AppFileError)
    /// Reads the file, if its protection class allows it now.
    func read(_ url: URL) throws(AppFileError) -> Data
    /// Removes the file.
    func remove(_ url: URL) throws(AppFileError)
    /// Whether a file exists (visible whatever the lock state).
    func fileExists(_ url: URL) -> Bool
}

/// SimPlatform's protected files behind ``AppFiles``: writes and removals pass through the seam.
public struct DeviceFiles: AppFiles {
    let files: ProtectedFiles

    /// Wraps a platform's files.
    public init(_ files: ProtectedFiles) { self.files = files }

    public func write(_ data: Data, to url: URL) throws(AppFileError) {
        do { try files.write(data, to: url) } catch { throw AppFileError(path: error.path, code: error.code) }
    }

    public func read(_ url: URL) throws(AppFileError) -> Data {
        do { return try files.read(url) } catch { throw AppFileError(path: error.path, code: error.code) }
    }

    public func remove(_ url: URL) throws(AppFileError) {
        do { try files.remove(url) } catch { throw AppFileError(path: error.path, code: error.code) }
    }

    public func fileExists(_ url: URL) -> Bool { files.fileExists(url) }
}

/// `UIApplication.isProtectedDataAvailable` and its "did become available" notification.
public protocol ProtectedDataGate: Sendable {
    /// Whether protected data (complete-protection files, `WhenUnlocked` items) is readable now.
    var isAvailable: Bool { get }
    /// Waits for the "did become available" signal; false when `timeout` seconds passed first.
    func waitUntilAvailable(timeout: Double) async -> Bool
}

extension ProtectedData: ProtectedDataGate {
    public func waitUntilAvailable(timeout: Double) async -> Bool {
        let gate = self
        return gate.waitUntilAvailable(timeout: timeout, interval: 0.01)
    }
}

/// Everything platform-facing a Ledger build uses, made once per launch: the adapters, the
/// container folders, the device clock and the launch arguments.
public struct AppEnvironment: Sendable {
    public var bundleID: String
    public var defaults: any AppDefaults
    public var files: any AppFiles
    public var protectedData: any ProtectedDataGate
    public var documents: URL
    public var applicationSupport: URL
    public var tmp: URL
    /// The device clock (`Date.now` on iOS).
    public var now: Date
    /// The runtime that answers every status in this launch (`iOS 17.5`).
    public var runtime: String
    public var arguments: [String]
    /// The data container (`NSHomeDirectory()` on iOS): declared files are paths inside it.
    public var home: URL
    /// App group id to its container (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
    public var groupContainers: [String: URL]
    /// `UserDefaults(suiteName:)` for an app group the app is entitled to; nil otherwise.
    public var suiteDefaults: @Sendable (String) -> (any AppDefaults)?
    /// Set when this process is one of the app's extensions (build.json's `extensions`), not the
    /// app: its name, kind and host app. ``bundleID``, ``home`` and the keychain are then the
    /// extension's own. Nil in an app's launch.
    public var appExtension: LaunchContext.AppExtension?

    /// The memberwise initialiser, for tests and other platforms.
    public init(
        bundleID: String, defaults: any AppDefaults, files: any AppFiles, protectedData: any ProtectedDataGate,
        documents: URL, applicationSupport: URL, tmp: URL, now: Date, runtime: String, arguments: [String],
        home: URL? = nil, groupContainers: [String: URL] = [:],
        suiteDefaults: @escaping @Sendable (String) -> (any AppDefaults)? = { _ in nil }
    ) {
        self.bundleID = bundleID
        self.defaults = defaults
        self.files = files
        self.protectedData = protectedData
        self.documents = documents
        self.applicationSupport = applicationSupport
        self.tmp = tmp
        self.now = now
        self.runtime = runtime
        self.arguments = arguments
        self.home = home ?? documents.deletingLastPathComponent()
        self.groupContainers = groupContainers
        self.suiteDefaults = suiteDefaults
    }

    /// The environment of an app launched on a simulated device.
    public init(platform: Platform) {
        self.init(
            bundleID: platform.context.bundleID, defaults: platform.preferences, files: DeviceFiles(platform.files),
            protectedData: platform.protectedData, documents: platform.containers.documents,
            applicationSupport: platform.containers.applicationSupport, tmp: platform.containers.tmp,
            now: platform.now, runtime: "\(platform.context.runtime)", arguments: platform.arguments,
            home: platform.containers.home, groupContainers: platform.containers.groups,
            suiteDefaults: { platform.preferences(suiteName: $0) })
        appExtension = platform.context.appExtension
    }

    /// The value after `flag` in the launch arguments (`-UITestCaseID abc` gives `abc`).
    public func argument(after flag: String) -> String? {
        guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1]
        return value.hasPrefix("-") ? nil : value
    }
}
