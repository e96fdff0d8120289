import FileUtility
import Foundation
import SimRuntime
import SimSecurity

/// The folder that holds simulated devices, one sub-folder per UDID, like CoreSimulator's device set.
public struct DeviceSet: Sendable {
    /// The environment variable that sets the devices root.
    public static let environmentKey = "UPGRADE_RUNNER_DEVICES"

    public let root: String

    public init(root: String) { self.root = root }

    /// The devices root: `flag` (`--devices-root`), else `$UPGRADE_RUNNER_DEVICES`, else
    /// `~/.upgrade-runner/devices`.
    public static func resolveRoot(flag: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let value = environment[environmentKey], !value.isEmpty { return value }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.upgrade-runner/devices"
    }

    /// Every device in the set, sorted by name then UDID, and the device folders that could not be read.
    public func list() -> (devices: [Device], problems: [DeviceError]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return ([], []) }
        var devices: [Device] = []
        var problems: [DeviceError] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let layout = DeviceLayout(directory: root + "/" + name)
            guard FileManager.default.fileExists(atPath: layout.recordPath) else { continue }
            do {
                devices.append(try Device(layout: layout))
            } catch {
                problems.append(error)
            }
        }
        devices.sort { ($0.record.name, $0.udid) < ($1.record.name, $1.udid) }
        return (devices, problems)
    }

    /// The device with this UDID, or else the only device with this name.
    public func device(_ nameOrUDID: String) throws(DeviceError) -> Device {
        let direct = DeviceLayout(directory: root + "/" + nameOrUDID)
        if !nameOrUDID.contains("/"), !nameOrUDID.hasPrefix("."), FileManager.default.fileExists(atPath: direct.directory) {
            return try Device(layout: direct)
        }
        let named = list().devices.filter { $0.record.name == nameOrUDID }
        switch named.count {
        case 0: throw .unknownDevice(nameOrUDID, root: root)
        case 1: return named[0]
        default: throw .ambiguousDevice(nameOrUDID, udids: named.map(\.udid))
        }
    }

    /// Creates a device, shut down and before first unlock, with an empty keychain.
    /// - Parameters:
    ///   - clock: the device clock; the default is now, to the second.
    ///   - udid: the UDID; the default is a new random one.
    public func create(
        name: String, runtime: RuntimeVersion = .current, deviceType: String = "iPhone 15",
        clock: Date? = nil, udid: String = UUID().uuidString
    ) throws(DeviceError) -> Device {
        guard Self.makePrivateFolders(root) == 0 else { throw .notWritable(root, reason: "cannot create the devices root") }
        guard access(root, W_OK) == 0 else { throw .notWritable(root, reason: String(cString: strerror(errno))) }
        let now = clock ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let record = DeviceRecord(udid: udid, name: name, deviceType: deviceType, runtime: runtime, clock: now)
        return try assemble(udid: udid) { staging throws in
            try Device.makeSkeleton(staging)
            try Device.writeDigestKey(staging)
            try JSONFile.write(record, to: staging.recordPath)
            try Device.writeLockStateFile(record, staging)
            return record
        }
    }

    /// Builds a device under a hidden name with `fill` and moves it into place with one rename, so
    /// a device is either complete or absent; on failure the partial folder is removed. `fill`
    /// returns the record it wrote, which the device is made with (not read back: a gate makes
    /// hundreds of devices, and each JSON decode of a record is a cost in a debug build).
    func assemble(udid: String, _ fill: (DeviceLayout) throws -> DeviceRecord) throws(DeviceError) -> Device {
        let staging = DeviceLayout(directory: root + "/.creating-" + udid)
        let final = DeviceLayout(directory: root + "/" + udid)
        guard access(final.directory, F_OK) != 0 else {
            throw .fileSystem(final.directory, reason: "a device with this UDID exists")
        }
        let record: DeviceRecord
        do {
            // The device holds a keychain and preferences in the clear: its folder is this user's
            // alone (0700 whatever the umask), so nothing an app writes inside is readable by others.
            guard mkdir(staging.directory, 0o700) == 0 || errno == EEXIST, chmod(staging.directory, 0o700) == 0 else {
                throw DeviceError.fileSystem(staging.directory, reason: String(cString: strerror(errno)))
            }
            record = try fill(staging)
            // One rename (FileManager's moveItem parsed both paths as URLs and looked at each first).
            guard rename(staging.directory, final.directory) == 0 else {
                throw DeviceError.fileSystem(
                    final.directory, reason: "cannot move the new device into place (\(FileFailure.posix(errno)))")
            }
        } catch {
            _ = TreeRemoval.remove(staging.directory)
            if let error = error as? DeviceError { throw error }
            throw .fileSystem(final.directory, reason: error.localizedDescription)
        }
        return Device(layout: final, record: record)
    }

    /// `mkdir -p` of `folder` where every folder it creates is 0700 (`~/.upgrade-runner`,
    /// `devices/`); a folder that exists keeps its mode. 0, or the errno of the failure.
    static func makePrivateFolders(_ folder: String) -> Int32 {
        var info = stat()
        if stat(folder, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR ? 0 : ENOTDIR }
        let parent = (folder as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != folder {
            let above = makePrivateFolders(parent)
            if above != 0 { return above }
        }
        guard mkdir(folder, 0o700) == 0 else { return errno == EEXIST ? 0 : errno }
        return chmod(folder, 0o700) == 0 ? 0 : errno
    }
}
