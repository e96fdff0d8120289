import Foundation
import SimRuntime

/// What an install did relative to what was installed before.
public enum InstallKind: String, Codable, Sendable {
    /// Nothing with this bundle id was installed.
    case install
    /// A higher build number replaced a lower one; the data container was kept.
    case upgrade
    /// A lower build number replaced a higher one (allowed, as simctl allows it); data kept.
    case downgrade
    /// The same build number was installed again; data kept.
    case reinstall
}

/// The build an install replaced.
public struct ReplacedBuild: Codable, Equatable, Sendable {
    public var buildID: String
    public var marketingVersion: String
    public var buildNumber: String
}

/// `install.json` in a bundle container: which build is installed, pinned by content.
public struct InstallRecord: Codable, Equatable, Sendable {
    public var bundleID: String
    public var buildID: String
    public var marketingVersion: String
    public var buildNumber: String
    public var schemaVersion: Int
    /// The executable's file name inside ``InstalledApp/appFolder``.
    public var executable: String
    public var executableSHA256: String
    /// The entitlements file's name inside ``InstalledApp/appFolder``.
    public var entitlements: String
    public var entitlementsSHA256: String
    /// The identity the device gives the app, from its entitlements.
    public var identity: AppIdentity
    public var kind: InstallKind
    public var replaced: ReplacedBuild?
    /// The device clock at install time.
    public var installedAt: Date
    /// Counts installs of this bundle id on this device, from 1; the highest wins if an interrupted
    /// install left two bundle containers.
    public var sequence: Int
    /// The app extensions installed with the app (build.json's `extensions`); nil for a build
    /// without any, so an app without extensions has the record it always had.
    public var extensions: [InstalledExtensionRecord]?
}

/// An app extension in an install record: installed inside the app's bundle
/// (`<app>/PlugIns/<name>.appex/`), pinned by content, with the identity its own entitlements give it.
public struct InstalledExtensionRecord: Codable, Equatable, Sendable {
    public var name: String
    /// `notification-service`, `widget`, `share` or `background-task`.
    public var kind: String
    /// `<app bundle id>.<name>`: the bundle id of its process and of its data container.
    public var bundleID: String
    public var executable: String
    public var executableSHA256: String
    public var entitlements: String
    public var entitlementsSHA256: String
    /// The identity the device gives the extension, from its own entitlements.
    public var identity: AppIdentity
}

/// An installed app: its bundle container and install record.
public struct InstalledApp: Sendable, Equatable {
    public var container: Container
    public var record: InstallRecord

    public var bundleID: String { record.bundleID }
    /// `<bundle container>/<executable>.app`, which holds the manifest, entitlements and executable.
    public var appFolder: String { container.path + "/" + record.executable + ".app" }
    public var executablePath: String { appFolder + "/" + record.executable }

    static let recordName = "install.json"

    /// The app's installed extensions, in build.json's order (none for most apps).
    public var extensions: [InstalledExtensionRecord] { record.extensions ?? [] }

    /// The installed extension named `name` (its build.json name), or nil.
    public func installedExtension(_ name: String) -> InstalledExtensionRecord? {
        extensions.first { $0.name == name }
    }

    /// `<app folder>/PlugIns/<name>.appex`, where iOS keeps an app's extension: its executable, its
    /// entitlements, the app's build.json and its Info.plist.
    public func extensionFolder(_ item: InstalledExtensionRecord) -> String {
        appFolder + "/PlugIns/" + item.name + ".appex"
    }

    /// The extension's installed executable.
    public func extensionExecutablePath(_ item: InstalledExtensionRecord) -> String {
        extensionFolder(item) + "/" + item.executable
    }

    init(container: Container) throws(DeviceError) {
        self.container = container
        let path = container.path + "/" + InstalledApp.recordName
        let data = try JSONFile.contents(path, what: "install record")
        // A device copy's bundle containers hold their source's records: each one's bytes are
        // decoded (and checked for a key given twice) once per process.
        if let known = Self.records.withLock({ $0[FileBytes(data: data)] }) {
            record = known
        } else {
            record = try JSONFile.decode(InstallRecord.self, from: data, path: path)
            Self.records.withLock { $0[FileBytes(data: data)] = record }
        }
    }

    private static let records = Memo<FileBytes, InstallRecord>()
}

/// One line of `<UDID>/history.jsonl`.
struct HistoryEvent: Codable {
    var event: String
    var bundleID: String?
    var buildID: String?
    var buildNumber: String?
    var clock: Date

    /// Appends the event; the history is informational, so a failure to write it is not an error.
    static func append(_ event: HistoryEvent, to layout: DeviceLayout) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard var line = try? encoder.encode(event) else { return }
        line.append(0x0A)
        let fd = open(layout.historyPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }
}
