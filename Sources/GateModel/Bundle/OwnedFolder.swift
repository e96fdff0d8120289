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

    /// The hidden name a folder is made under, beside where it goes, until it holds its marker:
    /// `.creating-` and the folder's own name.
    package static let stagingPrefix = ".creating-"

    /// Creates `folder` (mode 0700 whatever the umask) with its marker and holds the marker's lock
    /// until ``release(_:)``.
    ///
    /// The folder never exists without its proof: it is made under a hidden name beside its place
    /// (``stagingPrefix``), its marker appears there whole and locked (written to an unnamed file,
    /// `O_TMPFILE`, then linked in), and one rename moves it into place. A runner killed on the way
    /// leaves a hidden folder that is empty or holds a whole marker with a free lock, which
    /// ``AbandonedFolders`` removes; a sweep that removes the empty folder under a live runner
    /// makes this one start again under a new folder. (A file system without `O_TMPFILE` gets the
    /// marker written in place: a runner killed between its creation and its first line leaves a
    /// hidden empty-marker folder that no sweep may take, holding nothing.)
    /// - Throws: ``Failure`` saying what failed; the folder is not left behind then.
    package static func create(_ folder: String) throws(OwnedFolder.Failure) {
        let staging =
            (folder as NSString).deletingLastPathComponent + "/" + stagingPrefix + (folder as NSString).lastPathComponent
        var info = stat()
        guard lstat(folder, &info) != 0 else { throw Failure(cause: FileFailure.posix(EEXIST)) }
        for _ in 0..<5 {
            guard mkdir(staging, 0o700) == 0 else { throw Failure(cause: FileFailure.posix(errno)) }
            chmod(staging, 0o700)
            let descriptor: Int32
            switch writeMarker(in: staging) {
            case .made(let made): descriptor = made
            // The hidden folder went (a sweep took it while it was empty): start again.
            case .folderGone: continue
            case .exists:
                removeMarkerLast(staging)
                throw Failure(cause: FileFailure.posix(EEXIST))
            case .failed(let failure):
                removeMarkerLast(staging)
                throw Failure(cause: FileFailure.posix(failure))
            }
            guard rename(staging, folder) == 0 else {
                let failure = errno
                if failure == ENOENT {
                    close(descriptor)
                    continue
                }
                removeMarkerLast(staging)
                close(descriptor)
                throw Failure(cause: FileFailure.posix(failure))
            }
            lock.withLock { held[folder] = descriptor }
            return
        }
        throw Failure(cause: "another process kept removing it while it was made")
    }

    /// Writes the marker into `folder` and holds its lock: whole from the moment it has a name
    /// (``WholeLockedFile``).
    private static func writeMarker(in folder: String) -> WholeLockedFile.Outcome {
        var token = [UInt8](repeating: 0, count: 16)
        for index in token.indices { token[index] = UInt8.random(in: 0...255) }
        let bytes = Array((identity + "\n" + token.map { String(format: "%02x", $0) }.joined() + "\n").utf8)
        return WholeLockedFile.create(folder + "/" + markerName, bytes: bytes, mode: 0o600)
    }

    /// A file standing at a removed folder's path (`folder`), so that nothing is made below it again,
    /// proven a runner's as a folder is: the identity line, and a lock held by the returned descriptor
    /// until it closes (at the latest when this process ends). Nil when the path is taken.
    package static func tombstone(_ folder: String) -> Int32? {
        guard case .made(let descriptor) = WholeLockedFile.create(folder, bytes: Array((identity + "\n").utf8), mode: 0o600)
        else { return nil }
        return descriptor
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
    /// link, starting with ``identity``, and its lock is free (a ``tombstone(_:)`` is a regular file
    /// at the folder's path that is its own marker). Answers whether it removed it. The lock
    /// is held while the folder goes, so that two sweeps never race over one folder.
    @discardableResult
    package static func removeIfAbandoned(_ folder: String) -> Bool {
        var info = stat()
        guard lstat(folder, &info) == 0 else { return false }
        // A tombstone (``tombstone(_:)``): the file is its own marker.
        let isTombstone = info.st_mode & S_IFMT == S_IFREG
        guard isTombstone || info.st_mode & S_IFMT == S_IFDIR else { return false }
        let descriptor = open(isTombstone ? folder : folder + "/" + markerName, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var marker = stat()
        guard fstat(descriptor, &marker) == 0, marker.st_mode & S_IFMT == S_IFREG, marker.st_size < 4096 else { return false }
        var buffer = [UInt8](repeating: 0, count: identity.utf8.count + 1)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == buffer.count, buffer == Array((identity + "\n").utf8) else { return false }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        if isTombstone { return unlink(folder) == 0 }
        // Renamed away first, so that nothing is made under the old name while it goes.
        let doomed = folder + ".removing-" + UUID().uuidString
        removeMarkerLast(rename(folder, doomed) == 0 ? doomed : folder)
        return true
    }

    /// Removes an owned folder with its marker last: a process killed halfway leaves a folder that
    /// still proves whose it is, which the next sweep removes, never one no sweep may touch. While
    /// anything else is left in it (an entry that could not be removed, or one a process still
    /// writing made again), the marker stays.
    package static func removeMarkerLast(_ folder: String) {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var left = false
        for name in entries where name != markerName {
            let path = folder + "/" + name
            if TreeRemoval.remove(path) != 0, access(path, F_OK) == 0 { left = true }
        }
        guard !left else { return }
        unlink(folder + "/" + markerName)
        if rmdir(folder) != 0 { _ = TreeRemoval.remove(folder) }
    }
}

/// The temporary folders of runners that no longer exist (device folders, bundle unpack folders):
/// a folder whose name starts with one of the prefixes and which ``OwnedFolder`` proves is an ended
/// runner's, and the hidden folder one was being made under (``OwnedFolder/stagingPrefix``): proven
/// the same way, or empty (a live runner whose empty folder goes starts again). One listing of `base`
/// serves every prefix.
package enum AbandonedFolders {
    package static func remove(in base: String, prefixes: [String]) {
        let base = base.hasSuffix("/") ? base : base + "/"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names {
            let staged = name.hasPrefix(OwnedFolder.stagingPrefix)
            let own = staged ? String(name.dropFirst(OwnedFolder.stagingPrefix.count)) : name
            guard prefixes.contains(where: { own.hasPrefix($0) }) else { continue }
            if !OwnedFolder.removeIfAbandoned(base + name) && staged { rmdir(base + name) }
        }
    }
}
