import Foundation
import SimRuntime
import SimSecurity

/// A session's reads of its device's keychain: one SQLite connection, opened at the first read and
/// kept until the session ends, the device is erased or copied; and the items of the last read,
/// kept until another connection commits a change (SQLite's `PRAGMA data_version`).
///
/// Opening the database costs more than reading it: SQLite parses the whole schema on a
/// connection's first statement, and the store checks its tables and version. The gate reads a
/// device's keychain after most of its launches (where the case's secrets are, snapshots, state
/// fingerprints), so a connection per read was a fifth of the runner's CPU (`perf record` of the
/// default gate, docs/benchmarks.md). A connection left open between launches is what a device has
/// too: securityd keeps the keychain open while apps come and go.
///
/// SQLite's locks are POSIX record locks, which belong to the process and the file, and which go
/// when the process closes any descriptor of that file. A copy of the device made in this process
/// opens and closes its keychain files, so ``DeviceSet/clone(_:name:udid:)`` first closes the
/// reader of its source (``close(readerOf:)``): a connection held through the copy would lose its
/// locks, and an app that closes the database would then take itself for the last connection and
/// remove the write-ahead log under it (`KeychainReaderTests`).
final class KeychainReader: @unchecked Sendable {
    private struct Connection {
        var keychain: Keychain
        var path: String
        var device: UInt64
        var inode: UInt64
        var version: Int64
        var items: [KeychainItemRecord]
    }

    private let lock = NSLock()
    private var connection: Connection?

    /// Every keychain item on `device`, as ``Device/keychainItems()`` reads them.
    func items(of device: Device) throws(DeviceError) -> [KeychainItemRecord] {
        lock.lock()
        defer { lock.unlock() }
        let path = device.layout.keychainPath
        var info = stat()
        guard stat(path, &info) == 0 else {
            closeConnection()
            throw .missingFile(path, what: "keychain database")
        }
        do throws(DeviceError) {
            // The same file (not one made anew in its place) through the same connection.
            if var open = connection, open.path == path, open.device == UInt64(info.st_dev), open.inode == UInt64(info.st_ino) {
                let version = try Self.version(of: open.keychain, path: path)
                if version != open.version {
                    open.items = try Device.items(of: open.keychain, path: path)
                    open.version = version
                    connection = open
                }
                return open.items
            }
            closeConnection()
            let keychain = try device.openKeychain()
            let version = try Self.version(of: keychain, path: path)
            let items = try Device.items(of: keychain, path: path)
            connection = Connection(
                keychain: keychain, path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), version: version,
                items: items)
            Self.registry.withLock { Self.open[path] = self }
            return items
        } catch {
            closeConnection()
            throw error
        }
    }

    /// Closes the connection (a later read opens another).
    func close() {
        lock.withLock { closeConnection() }
    }

    private func closeConnection() {
        guard let path = connection?.path else { return }
        // The last reference to the Keychain value: its store closes the database here.
        connection = nil
        Self.registry.withLock { if Self.open[path] === self { Self.open[path] = nil } }
    }

    private static func version(of keychain: Keychain, path: String) throws(DeviceError) -> Int64 {
        do {
            return try keychain.dataVersion()
        } catch {
            throw .malformedFile(path, reason: "\(error)")
        }
    }

    // The readers with an open connection, by database path.
    private static let registry = NSLock()
    nonisolated(unsafe) private static var open: [String: KeychainReader] = [:]

    /// Closes the connection of the reader of the keychain database at `path`, if one is open.
    static func close(readerOf path: String) {
        // Taken out under the registry's lock, closed outside it: a read holds the reader's lock
        // and then takes the registry's.
        let reader = registry.withLock { open[path] }
        reader?.close()
    }
}
