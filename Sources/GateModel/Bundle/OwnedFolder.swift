import FileUtility
import Foundation

/// Proof that a temporary folder is a live runner's, which holds across PID namespaces and across
/// machines sharing a file system, where a pid in the folder's name proves nothing: a marker file
/// inside the folder (``markerName``) holding the runner's identity line and a random token, and an
/// exclusive `flock` on that marker held open for as long as the folder lives. The kernel releases the
/// lock when the owner dies however it dies, and a lock on an open file description is seen by every
/// process that opens the same file, whatever its namespace.
///
/// A sweep (``AbandonedFolders``) removes a folder only when the marker is a regular file (opened with
/// `O_NOFOLLOW`) that starts with ``identity`` and its lock can be taken: the owner is gone. A folder
/// with no marker, a foreign marker, or a held lock is left alone, whatever its name.
package enum OwnedFolder {
    /// Why a folder or its marker could not be made, in `strerror`'s words.
    package struct Failure: Error, Sendable {
        package var cause: String
    }

    /// The marker's name inside an owned folder (a dot file: a device set does not list it).
    package static let markerName = ".upgrade-runner-owner"
    /// The marker's first line.
    package static let identity = "upgrade-runner temporary folder owner v1"

    private static let lock = NSLock()
    // The held markers by folder: open, locked, close-on-exec (an app launch never inherits one).
    nonisolated(unsafe) private static var held: [String: Int32] = [:]

    /// Creates `folder` (mode 0700 whatever the umask) with its marker and holds the marker's lock
    /// until ``release(_:)``.
    /// - Throws: ``Failure`` saying what failed; the folder is not left behind then.
    package static func create(_ folder: String) throws(OwnedFolder.Failure) {
        guard mkdir(folder, 0o700) == 0 else { throw Failure(cause: FileFailure.posix(errno)) }
        chmod(folder, 0o700)
        do throws(OwnedFolder.Failure) {
            try claim(folder)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// Writes the marker into `folder`, made by the caller and empty, and holds its lock.
    package static func claim(_ folder: String) throws(OwnedFolder.Failure) {
        let marker = folder + "/" + markerName
        let descriptor = open(marker, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(cause: FileFailure.posix(errno)) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = Failure(cause: FileFailure.posix(errno))
            close(descriptor)
            throw failure
        }
        var token = [UInt8](repeating: 0, count: 16)
        for index in token.indices { token[index] = UInt8.random(in: 0...255) }
        let text = identity + "\n" + token.map { String(format: "%02x", $0) }.joined() + "\n"
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
            let failure = Failure(cause: FileFailure.posix(errno))
            close(descriptor)
            throw failure
        }
        lock.withLock { held[folder] = descriptor }
    }

    /// Lets go of `folder`'s lock, once the folder is removed (or is no longer temporary).
    package static func release(_ folder: String) {
        guard let descriptor = lock.withLock({ held.removeValue(forKey: folder) }) else { return }
        close(descriptor)
    }

    /// Whether `folder`, held by this process, lost its marker: another process removed or replaced
    /// the folder under a live run. False for a folder this process does not hold.
    package static func vanished(_ folder: String) -> Bool {
        guard let descriptor = lock.withLock({ held[folder] }) else { return false }
        var open = stat()
        var onDisk = stat()
        guard fstat(descriptor, &open) == 0, lstat(folder + "/" + markerName, &onDisk) == 0 else { return true }
        return open.st_dev != onDisk.st_dev || open.st_ino != onDisk.st_ino
    }

    /// Removes `folder` when it is provably an ended runner's: its marker is a regular file, not a
    /// link, starting with ``identity``, and its lock is free. Answers whether it removed it. The lock
    /// is held while the folder goes, so that two sweeps never race over one folder.
    @discardableResult
    package static func removeIfAbandoned(_ folder: String) -> Bool {
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        let descriptor = open(folder + "/" + markerName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var marker = stat()
        guard fstat(descriptor, &marker) == 0, marker.st_mode & S_IFMT == S_IFREG, marker.st_size < 4096 else { return false }
        var buffer = [UInt8](repeating: 0, count: identity.utf8.count + 1)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == buffer.count, buffer == Array((identity + "\n").utf8) else { return false }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        // Renamed away first, so that nothing is made under the old name while it goes.
        let doomed = folder + ".removing-" + UUID().uuidString
        removeMarkerLast(rename(folder, doomed) == 0 ? doomed : folder)
        return true
    }

    /// Removes an owned folder with its marker last: a process killed halfway leaves a folder that
    /// still proves whose it is, which the next sweep removes, never one no sweep may touch.
    package static func removeMarkerLast(_ folder: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in entries where name != markerName {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        unlink(folder + "/" + markerName)
        if rmdir(folder) != 0 { try? FileManager.default.removeItem(atPath: folder) }
    }
}

/// The temporary folders of runners that no longer exist (device folders, bundle unpack folders):
/// a folder whose name starts with one of the prefixes and which ``OwnedFolder`` proves is an ended
/// runner's. One listing of `base` serves every prefix.
package enum AbandonedFolders {
    package static func remove(in base: String, prefixes: [String]) {
        let base = base.hasSuffix("/") ? base : base + "/"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where prefixes.contains(where: { name.hasPrefix($0) }) {
            OwnedFolder.removeIfAbandoned(base + name)
        }
    }
}
