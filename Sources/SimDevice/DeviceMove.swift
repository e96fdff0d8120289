import Foundation

extension DeviceSession {
    /// Moves the device into `set`, whose root is on the same file system, renamed `name`, and gives
    /// it back: the gate's `--keep-failed` keeps a failing cell's device this way, whole, for every
    /// device verb (`--devices-root`). The session is of no further use.
    /// - Throws: ``DeviceError/fileSystem(_:reason:)`` naming the device's folder when it cannot move.
    @discardableResult
    public func move(into set: DeviceSet, name: String) throws(DeviceError) -> Device {
        keychainReader.close()
        var record = self.record
        record.name = name
        try JSONFile.write(record, to: layout.recordPath)
        let target = DeviceLayout(directory: set.root + "/" + record.udid)
        guard rename(layout.directory, target.directory) == 0 else {
            let reason = String(cString: strerror(errno))
            release()
            throw .fileSystem(layout.directory, reason: "cannot be moved to \(set.root) (\(reason))")
        }
        release()
        return try Device(layout: target)
    }
}
