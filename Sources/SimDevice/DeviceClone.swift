import FileUtility
import Foundation
import SimRuntime
import SimSupervision

extension DeviceSet {
    /// Copies `source` to a new device with its own UDID and name: the same record (power, lock
    /// state, clock, runtime), installed apps, containers, keychain and digest key.
    ///
    /// For runs that start many devices from one prepared state (crash-point exploration): a copy
    /// costs a few file copies where preparing again costs installs and app launches. The source
    /// must not be in use by a launch while it is copied (its keychain is read file by file).
    /// Installed executables are hard-linked (no executable is written, so a concurrent spawn never
    /// finds one busy), other files copied; the source's lock file and logs are not.
    public func clone(_ source: Device, name: String, udid: String = UUID().uuidString) throws(DeviceError) -> Device {
        // A session's connection to the source's keychain would lose its locks to the copy's reads.
        KeychainReader.close(readerOf: source.layout.keychainPath)
        return try assemble(udid: udid) { staging throws in
            try Self.copyTree(from: source.layout.directory, to: staging.directory)
            var record = source.record
            record.udid = udid
            record.name = name
            try JSONFile.write(record, to: staging.recordPath)
            return record
        }
    }

    private static func copyTree(from source: String, to destination: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue,
            access(source, R_OK | X_OK) == 0
        else {
            throw DeviceError.fileSystem(source, reason: "cannot list the device")
        }
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: true)
        // Installed bundles' files, by their path below the device's folder.
        let bundles = "data/Containers/" + ContainerKind.bundle.relativePath + "/"
        // The logs folder is made, empty: a clone's launches log afresh. Installed bundles' files
        // are hard links: nothing changes them, and a copy of an 80 MB executable per clone is not free.
        // So are the digest key and the lock state file, which are only ever replaced whole (written
        // beside and renamed over, ``AtomicFile``), never changed in place; the record is left out,
        // as the copy's own is written next.
        try TreeCopy.copy(
            from: source, to: destination, pruning: ["logs"],
            choose: { entry in
                switch entry.relative {
                case "device.lock", "device.json": .leaveOut
                case "digest.key", "lockstate": .link
                default: entry.relative.hasPrefix(bundles) ? .link : .copy
                }
            },
            placed: { _, from, to throws(DeviceError) in try copyProtection(from, to) })
    }

    /// A file's data protection class is its metadata (``FileProtection``), which a copy of its bytes leaves behind.
    private static func copyProtection(_ from: String, _ to: String) throws(DeviceError) {
        guard let protection = FileProtection.stored(atPath: from) else { return }
        let status = FileProtection.set(protection, atPath: to)
        guard status == 0 else {
            throw .fileSystem(to, reason: "cannot keep the data protection class (\(FileFailure.posix(status)))")
        }
    }
}
