import FileUtility
import Foundation
import SimPlatform

/// The kinds of container a device holds, as MobileContainerManager names them.
public enum ContainerKind: String, CaseIterable, Sendable {
    /// The installed build (replaced, under a new UUID, on every install).
    case bundle
    /// The app's data: Documents, Library, tmp (kept across an in-place install).
    case data
    /// An app group's shared container.
    case appGroup

    var relativePath: String {
        switch self {
        case .bundle: "Bundle/Application"
        case .data: "Data/Application"
        case .appGroup: "Shared/AppGroup"
        }
    }

    /// `MCMMetadataContentClass` of the real metadata file.
    var contentClass: Int {
        switch self {
        case .bundle: 1
        case .data: 2
        case .appGroup: 7
        }
    }
}

/// One container folder and the identifier its metadata file names.
public struct Container: Sendable, Equatable {
    public var kind: ContainerKind
    /// The bundle id or app group id from `MCMMetadataIdentifier`.
    public var identifier: String
    public var uuid: String
    public var path: String
}

/// Finds and creates containers through their `.com.apple.mobile_container_manager.metadata.plist`,
/// never by folder name: the folder is a UUID that changes on every install, as on a real device.
public enum ContainerDirectory {
    public static let metadataFileName = ".com.apple.mobile_container_manager.metadata.plist"

    /// Every container of `kind` under `layout`, sorted by identifier then UUID. Folders without a
    /// readable metadata file (an install interrupted before it was moved into place) are skipped.
    public static func all(_ kind: ContainerKind, in layout: DeviceLayout) -> [Container] {
        let parent = layout.containersDirectory(kind)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent) else { return [] }
        return names.compactMap { name -> Container? in
            let folder = parent + "/" + name
            guard let identifier = identifier(of: folder) else { return nil }
            return Container(kind: kind, identifier: identifier, uuid: name, path: folder)
        }
        .sorted { ($0.identifier, $0.uuid) < ($1.identifier, $1.uuid) }
    }

    /// The containers of `kind` whose metadata names `identifier`.
    public static func find(_ kind: ContainerKind, identifier: String, in layout: DeviceLayout) -> [Container] {
        all(kind, in: layout).filter { $0.identifier == identifier }
    }

    /// The identifier that the metadata file in `folder` names, or nil.
    static func identifier(of folder: String) -> String? {
        guard let data = FileManager.default.contents(atPath: folder + "/" + metadataFileName) else { return nil }
        // A device copy's containers hold the same metadata files as their source's: each file's
        // bytes are parsed once per process.
        if let known = identifiers.withLock({ $0[FileBytes(data: data)] }) { return known }
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let identifier = plist["MCMMetadataIdentifier"] as? String
        else { return nil }
        identifiers.withLock { $0[FileBytes(data: data)] = identifier }
        return identifier
    }

    private static let identifiers = Memo<FileBytes, String>()

    /// Creates a container folder of `kind` for `identifier` in `parent` (the final place, or a
    /// staging folder), with its metadata file and, for data and group containers, the standard folders.
    static func create(
        _ kind: ContainerKind, identifier: String, uuid: String = UUID().uuidString,
        at folder: String
    ) throws(DeviceError) -> Container {
        let metadata: [String: Any] = [
            "MCMMetadataIdentifier": identifier,
            "MCMMetadataUUID": uuid,
            "MCMMetadataContentClass": kind.contentClass,
            "MCMMetadataSchemaVersion": 1,
        ]
        let subfolders: [String] =
            switch kind {
            case .bundle: []
            case .data: AppContainers.dataFolders
            case .appGroup: AppContainers.groupFolders
            }
        do {
            for sub in [""] + subfolders {
                try FileManager.default.createDirectory(atPath: folder + "/" + sub, withIntermediateDirectories: true)
            }
            let data = try metadataFile(metadata, kind: kind, identifier: identifier, uuid: uuid)
            let failure = AtomicFile.write(data, to: folder + "/" + metadataFileName)
            if failure != 0 { throw NSError(domain: NSPOSIXErrorDomain, code: Int(failure)) }
        } catch {
            throw .fileSystem(folder, reason: "cannot create container (\(error.localizedDescription))")
        }
        return Container(kind: kind, identifier: identifier, uuid: uuid, path: folder)
    }

    /// The metadata file's bytes: encoded once per kind and identifier with a stand-in UUID, which
    /// each container's own replaces (a UUID needs no escaping in XML). A gate creates hundreds of
    /// containers for the same few apps.
    private static func metadataFile(
        _ metadata: [String: Any], kind: ContainerKind, identifier: String, uuid: String
    ) throws -> Data {
        let key = [kind.rawValue, identifier]
        let text: String
        if let known = metadataTexts.withLock({ $0[key] }) {
            text = known
        } else {
            var template = metadata
            template["MCMMetadataUUID"] = standInUUID
            let data = try PropertyListSerialization.data(fromPropertyList: template, format: .xml, options: 0)
            text = String(decoding: data, as: UTF8.self)
            metadataTexts.withLock { $0[key] = text }
        }
        return Data(text.replacingOccurrences(of: standInUUID, with: uuid).utf8)
    }

    /// Moves `container` to a new folder beside it, as iOS may move an app's containers on an
    /// install over it (an update, a reinstall) and on a restore: its files stay, its path changes,
    /// so a path the app stored (`NSHomeDirectory()` + "/Documents/x") points nowhere afterwards.
    /// The new UUID is derived from the old one and `sequence` (the install's number), so copies of
    /// one device (exploration's clones) move alike and states that match stay equal.
    static func move(_ container: Container, sequence: Int) throws(DeviceError) -> Container {
        let digest = SHA256.hash(Array("\(container.uuid)/\(sequence)".utf8)).prefix(16)
        let hex = digest.map { String(format: "%02X", $0) }.joined()
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(
                hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)]
            )
        }
        let uuid = parts.joined(separator: "-")
        let parent = (container.path as NSString).deletingLastPathComponent
        let target = parent + "/" + uuid
        let metadata: [String: Any] = [
            "MCMMetadataIdentifier": container.identifier, "MCMMetadataUUID": uuid,
            "MCMMetadataContentClass": container.kind.contentClass, "MCMMetadataSchemaVersion": 1,
        ]
        do {
            let data = try metadataFile(metadata, kind: container.kind, identifier: container.identifier, uuid: uuid)
            let failure = AtomicFile.write(data, to: container.path + "/" + metadataFileName)
            if failure != 0 { throw NSError(domain: NSPOSIXErrorDomain, code: Int(failure)) }
        } catch {
            throw .fileSystem(container.path, reason: "cannot rewrite the container's metadata (\(error.localizedDescription))")
        }
        guard rename(container.path, target) == 0 else {
            throw .fileSystem(container.path, reason: "cannot move the container (\(String(cString: strerror(errno))))")
        }
        return Container(kind: container.kind, identifier: container.identifier, uuid: uuid, path: target)
    }

    private static let standInUUID = "00000000-0000-0000-0000-000000000000"
    private static let metadataTexts = Memo<[String], String>()
}

/// A file's bytes as a dictionary key, hashed whole: `Data`'s own hash reads only its first 80
/// bytes, which every container metadata file (an XML header) and every install record shares.
struct FileBytes: Hashable, Sendable {
    let data: Data

    func hash(into hasher: inout Hasher) {
        hasher.combine(data.count)
        data.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

/// A dictionary shared by threads, for values a process makes once.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    func withLock<T>(_ body: (inout [Key: Value]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&values)
    }
}
