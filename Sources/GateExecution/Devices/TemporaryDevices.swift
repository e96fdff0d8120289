import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime

/// The temporary device folders of the runs in this process. Simulated keychains hold the seeded
/// secrets in the clear, so the folders go when a run ends, when the runner is interrupted
/// (``InterruptHandling``), and, for a runner that was killed outright, at the next start
/// (folders whose owner's lock is free, ``OwnedFolder``).
///
/// Where they go: ``parent(needing:environment:)``.
package enum TemporaryDevices {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: Set<String> = []
    // Cells at work on devices, and whether the runner is stopping: removal waits for the cells,
    // since a cell between two steps could otherwise create a device folder again after it.
    private static let cells = NSCondition()
    nonisolated(unsafe) private static var activeCells = 0
    nonisolated(unsafe) private static var stopping = false

    /// A cell starts work on devices; false once the runner is stopping (the cell must not start).
    static func beginCell() -> Bool {
        cells.lock()
        defer { cells.unlock() }
        guard !stopping else { return false }
        activeCells += 1
        return true
    }

    /// A cell has stopped touching devices.
    static func endCell() {
        cells.lock()
        activeCells -= 1
        cells.broadcast()
        cells.unlock()
    }
    static let prefix = "upgrade-runner-devices-"

    /// Where a run's temporary devices go: `$UPGRADE_RUNNER_SCRATCH` when set; else `$TMPDIR` when
    /// set; else `/dev/shm` when it is a memory file system this user can write with room for
    /// `bytes` and a margin; else the temporary folder (`/tmp`).
    ///
    /// A simulated device needs no durability (its apps end by exit or SIGKILL, never a power
    /// cut), and a gate creates, copies and deletes thousands of small files: on a memory file
    /// system none of them reaches a disk journal or write-back (docs/artifacts.md's "Running under
    /// faults" gives the default gate's CPU and wall time both ways, with the command).
    static func parent(
        needing bytes: Int, environment: [String: String] = ProcessInfo.processInfo.environment
    )
        -> String
    {
        if let chosen = environment["UPGRADE_RUNNER_SCRATCH"], !chosen.isEmpty { return folder(chosen) }
        if let temporary = environment["TMPDIR"], !temporary.isEmpty { return folder(temporary) }
        let memory = "/dev/shm"
        var space = statvfs()
        if isMemoryFileSystem(memory), access(memory, W_OK | X_OK) == 0, statvfs(memory, &space) == 0,
            Int(space.f_bavail) * Int(space.f_frsize) >= bytes + memoryMargin
        {
            return memory + "/"
        }
        return NSTemporaryDirectory()
    }

    /// Refuses an `UPGRADE_RUNNER_SCRATCH` that is not a folder this user can write, as bad input
    /// naming the variable, before a run writes anything.
    static func checkScratch(environment: [String: String] = ProcessInfo.processInfo.environment) throws(GateError) {
        guard let chosen = environment["UPGRADE_RUNNER_SCRATCH"], !chosen.isEmpty else { return }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: chosen, isDirectory: &isFolder), isFolder.boolValue,
            access(chosen, W_OK | X_OK) == 0
        else {
            throw .invalidValue(
                field: .named("UPGRADE_RUNNER_SCRATCH"), value: chosen, reason: "is not a folder this user can write")
        }
    }

    /// What a memory file system must have free beyond a run's staged executables: the devices
    /// themselves (a few MB each, a few dozen alive at once at most) and room for everything else
    /// that uses it.
    static let memoryMargin = 512 << 20

    private static func folder(_ path: String) -> String { path.hasSuffix("/") ? path : path + "/" }

    /// Whether `mountPoint` is mounted as a tmpfs in `mounts` (the text of `/proc/self/mounts`;
    /// false where there is none).
    static func isMemoryFileSystem(
        _ mountPoint: String, mounts: String? = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)
    ) -> Bool {
        (mounts ?? "").split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 2 && fields[1] == mountPoint && fields[2] == "tmpfs"
        }
    }

    /// Creates `folder` readable by this user alone (its keychains hold secrets in the clear), with
    /// the proof that it is this live runner's (``OwnedFolder``: a marker and its lock, held until the
    /// folder is removed), and registers it for removal.
    /// - Throws: ``GateError/io(path:doing:cause:)`` when it cannot be created.
    static func create(_ folder: String) throws(GateError) {
        // Under the cells' lock, so that the interrupt's removal either sees the folder or stops it
        // from being made.
        cells.lock()
        defer { cells.unlock() }
        guard !stopping else {
            throw .io(path: folder, doing: "creating the temporary devices folder", cause: "the runner is interrupted")
        }
        lock.withLock { _ = folders.insert(folder) }
        do throws(OwnedFolder.Failure) {
            try OwnedFolder.create(folder)
        } catch {
            lock.withLock { _ = folders.remove(folder) }
            throw .io(path: folder, doing: "creating the temporary devices folder", cause: error.cause)
        }
    }

    /// Registers `folder`, made by the caller (a bundle's unpack folder), for removal when the
    /// runner is interrupted, as the device folders are.
    package static func register(_ folder: String) {
        lock.withLock { _ = folders.insert(folder) }
    }

    /// Forgets a folder ``register(_:)`` took, once its owner removed it.
    package static func forget(_ folder: String) {
        lock.withLock { _ = folders.remove(folder) }
    }

    /// Removes a folder that cells may still be writing into: it is first renamed away, so that
    /// writes under its old path fail instead of recreating it, then deleted.
    static func remove(_ folder: String) {
        let doomed = folder + ".removing"
        let target = rename(folder, doomed) == 0 ? doomed : folder
        for _ in 0..<5 where FileManager.default.fileExists(atPath: target) {
            OwnedFolder.removeMarkerLast(target)
        }
        lock.withLock { _ = folders.remove(folder) }
        OwnedFolder.release(folder)
    }

    /// Removes every folder still registered (on interruption), once the cells have stopped:
    /// every launch fails at once after ``LaunchedProcesses/stopAll()`` (its app was killed, no new
    /// one starts), and a folder cannot be created once `stopping` is set (``create(_:)``), so
    /// nothing is made under the folders after they go. The deadline is for a cell stuck in a
    /// file system call.
    ///
    /// A cell still at work after the deadline (a loaded machine) must not make a folder again
    /// under a removed folder's name, which `mkdir -p` below it would, with no marker that a later
    /// sweep could prove: a tombstone file stands at each removed folder's path while such cells
    /// may run (every folder made below it fails with ENOTDIR), and goes just before the exit once
    /// they have stopped; while one still runs it stays (``OwnedFolder/tombstone(_:)``).
    static func removeAll() {
        cells.lock()
        stopping = true
        let deadline = Date().addingTimeInterval(3)
        while activeCells > 0 && cells.wait(until: deadline) {}
        let straggling = activeCells > 0
        cells.unlock()
        var tombstones: [(path: String, descriptor: Int32)] = []
        for folder in lock.withLock({ folders }) {
            for _ in 0..<5 {
                let doomed = folder + ".removing-" + UUID().uuidString
                if rename(folder, doomed) == 0 {
                    OwnedFolder.removeMarkerLast(doomed)
                } else if errno != ENOENT {
                    OwnedFolder.removeMarkerLast(folder)
                }
                guard straggling else { break }
                if let descriptor = OwnedFolder.tombstone(folder) {
                    tombstones.append((folder, descriptor))
                    break
                }
            }
            lock.withLock { _ = folders.remove(folder) }
            OwnedFolder.release(folder)
            try? FileManager.default.removeItem(atPath: folder + ".removing")
        }
        guard !tombstones.isEmpty else { return }
        cells.lock()
        let later = Date().addingTimeInterval(10)
        while activeCells > 0 && cells.wait(until: later) {}
        let stillStraggling = activeCells > 0
        cells.unlock()
        // Cells still at work after that keep their tombstones until the exit: one removed now could
        // let them make a folder again, unproven, before the process ends. A tombstone holds nothing
        // and proves whose it is, and the next start removes it (``OwnedFolder/removeIfAbandoned(_:)``).
        guard !stillStraggling else { return }
        for tombstone in tombstones {
            var info = stat()
            if lstat(tombstone.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG { unlink(tombstone.path) }
            close(tombstone.descriptor)
        }
    }

    /// Removes the device folders (and bundle unpack folders) of runners that no longer exist:
    /// `upgrade-runner-devices-…` whose marker proves them a runner's and whose lock is free
    /// (``OwnedFolder``; a pid proves nothing across PID namespaces), in the folders this start would use (the temporary folder,
    /// ``parent(needing:environment:)``'s choice under this environment) and `/dev/shm`. A folder
    /// left under another `UPGRADE_RUNNER_SCRATCH` or `TMPDIR` is found by a start with the same
    /// setting. Every start of the command line calls it first, before it can refuse anything, so a
    /// killed run's secrets do not outlive the next start of any runner in the same environment.
    package static func removeAbandoned() {
        // The temporary folder is also where a replay unpacks a bundle: its abandoned unpack
        // folders go in the same listing.
        for base in Set([NSTemporaryDirectory(), parent(needing: 0), "/dev/shm/"]) {
            AbandonedFolders.remove(in: base, prefixes: [prefix, RunBundle.unpackPrefix])
        }
    }
}
