import FileUtility
import Foundation
import SimRuntime

/// Why a device operation could not be done, in one line that names the device, file or build.
public enum DeviceError: Error, Equatable, CustomStringConvertible {
    /// No device with this UDID or name under the devices root.
    case unknownDevice(String, root: String)
    /// More than one device has this name.
    case ambiguousDevice(String, udids: [String])
    /// A file that exists but cannot be used; `reason` says which field or why.
    case malformedFile(String, reason: String)
    /// A file or folder that should exist and does not.
    case missingFile(String, what: String)
    /// A folder the device needs to write to and cannot.
    case notWritable(String, reason: String)
    /// Another process holds the device.
    case inUse(udid: String, pid: Int32?)
    /// The bundle id has no installed app on the device.
    case notInstalled(bundleID: String, udid: String)
    /// The operation needs a booted device.
    case shutDown(udid: String)
    /// No build with this id in the builds folder.
    case unknownBuild(String, buildsFolder: String)
    /// The build's executable product is not in the products folder.
    case missingExecutable(String, productsFolder: String, build: String)
    /// A file operation failed.
    case fileSystem(String, reason: String)
    /// The app could not be started.
    case spawnFailed(String, errno: Int32)
    /// A backup cannot be restored onto this device (it is not empty, or it is the backup's own).
    case restoreRefused(udid: String, reason: String)
    /// An OS update to an older runtime than the device's: iOS does not downgrade in place.
    case olderRuntime(udid: String, current: RuntimeVersion, requested: RuntimeVersion)
    /// A keychain sync that cannot be: a device named twice (a device syncs with another of its user).
    case syncRefused(udid: String, reason: String)
    /// The runner is being interrupted (SIGINT, SIGTERM): no app is launched, and one that was
    /// running was killed for it, so its outcome says nothing about the app.
    case interrupted

    /// Whether the machine failed the operation rather than the input: a file operation on the
    /// runner's own device files, an executable that cannot be started, an interruption. The run
    /// could not complete (the command line's exit code 3). Every other case is about what the user
    /// named (a device, a build, a file or field, a folder given to write to, a device's state or
    /// its lock): bad usage or input (exit code 2). `ExitStatus.report` in UpgradeRunner turns this
    /// into the exit code; no case is left to a default, so a new one must be placed.
    public var isEnvironmentFailure: Bool {
        switch self {
        case .fileSystem, .spawnFailed, .interrupted:
            true
        case .unknownDevice, .ambiguousDevice, .malformedFile, .missingFile, .notWritable, .inUse, .notInstalled,
            .shutDown, .unknownBuild, .missingExecutable, .restoreRefused, .olderRuntime, .syncRefused:
            false
        }
    }

    public var description: String {
        switch self {
        case .unknownDevice(let name, let root):
            return "unknown device \"\(name)\" (no such UDID or name in \(root))"
        case .ambiguousDevice(let name, let udids):
            return "device name \"\(name)\" is ambiguous: \(udids.joined(separator: ", ")); use a UDID"
        case .malformedFile(let path, let reason):
            return "\(path): \(reason)"
        case .missingFile(let path, let what):
            return "\(path): \(what) is missing"
        case .notWritable(let path, let reason):
            return "\(path) is not writable (\(reason))"
        case .inUse(let udid, let pid):
            guard let pid else { return "device \(udid) is in use by an app still running on it (its launcher has ended)" }
            return "device \(udid) is in use by pid \(pid)"
        case .notInstalled(let bundleID, let udid):
            return "\(bundleID) is not installed on device \(udid)"
        case .shutDown(let udid):
            return "device \(udid) is shut down; boot it first (upgrade-runner device boot \(udid))"
        case .unknownBuild(let id, let folder):
            return "unknown build \"\(id)\" (no \(folder)/\(id)/\(BuildManifest.fileName))"
        case .missingExecutable(let name, let folder, let build):
            return "build \(build): executable \"\(name)\" not found in products folder \(folder)"
        case .fileSystem(let path, let reason):
            return "\(path): \(reason)"
        case .spawnFailed(let path, let code):
            return "\(path): cannot be started (\(String(cString: strerror(code))))"
        case .restoreRefused(let udid, let reason):
            return "device \(udid): cannot restore a backup onto it: \(reason)"
        case .olderRuntime(let udid, let current, let requested):
            return "device \(udid) runs \(current): cannot update it to the older \(requested) (iOS does not downgrade in place)"
        case .syncRefused(let udid, let reason):
            return "device \(udid): cannot sync its keychain: \(reason)"
        case .interrupted:
            return "the runner was interrupted; the app's outcome is unknown"
        }
    }
}

/// Reading and writing the JSON files of a device and a build, with errors that name the file and field.
enum JSONFile {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// Decodes `T` from the file at `path`; every failure becomes a one-line ``DeviceError``.
    static func read<T: Decodable>(_ type: T.Type, from path: String, what: String) throws(DeviceError) -> T {
        try decode(type, from: contents(path, what: what), path: path)
    }

    /// The bytes of the file at `path` (`what` names it when it is missing).
    static func contents(_ path: String, what: String) throws(DeviceError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FileManager.default.fileExists(atPath: path)
                ? .malformedFile(path, reason: "cannot be read") : .missingFile(path, what: what)
        }
        return data
    }

    /// `data`, the bytes of the file at `path`, decoded as ``read(_:from:what:)`` decodes them.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, path: String) throws(DeviceError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let value: T
        do {
            value = try decoder.decode(T.self, from: data)
        } catch {
            throw .malformedFile(path, reason: JSONProblem.describe(error))
        }
        // A key given twice means two things to two readers (#37): refused, as in build.json.
        if let key = DuplicateKeys.first(in: data) { throw .malformedFile(path, reason: DuplicateKeys.reason(key)) }
        return value
    }

    /// Writes `value` as sorted-key JSON, atomically (a killed process leaves the old file or the
    /// new one) and without a sync (``AtomicFile``).
    static func write<T: Encodable>(_ value: T, to path: String) throws(DeviceError) {
        var data: Data
        do { data = try encoder.encode(value) } catch {
            throw .fileSystem(path, reason: "cannot be encoded (\(error))")
        }
        data.append(0x0A)
        let failure = AtomicFile.write(data, to: path)
        guard failure == 0 else { throw .fileSystem(path, reason: "cannot be written (\(FileFailure.posix(failure)))") }
    }
}
