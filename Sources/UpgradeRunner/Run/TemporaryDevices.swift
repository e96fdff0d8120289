import Foundation
import SimRuntime

/// The temporary device folders of the runs in this process. Simulated keychains hold the seeded
/// secrets in the clear, so the folders go when a run ends, when the runner is interrupted
/// (``InterruptHandling``), and, for a runner that was killed outright, at the next start
/// (folders whose process is gone).
enum TemporaryDevices {
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

    /// Creates `folder` readable by this user alone (its keychains hold secrets in the clear) and
    /// registers it for removal.
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
        guard mkdir(folder, 0o700) == 0 else {
            let cause = FileFailure.posix(errno)
            lock.withLock { _ = folders.remove(folder) }
            throw .io(path: folder, doing: "creating the temporary devices folder", cause: cause)
        }
        // mkdir's mode is masked by the umask; the folder must be 0700 whatever the umask.
        chmod(folder, 0o700)
    }

    /// Removes a folder that cells may still be writing into: it is first renamed away, so that
    /// writes under its old path fail instead of recreating it, then deleted.
    static func remove(_ folder: String) {
        let doomed = folder + ".removing"
        let target = rename(folder, doomed) == 0 ? doomed : folder
        for _ in 0..<5 where FileManager.default.fileExists(atPath: target) {
            try? FileManager.default.removeItem(atPath: target)
        }
        lock.withLock { _ = folders.remove(folder) }
    }

    /// Removes every folder still registered (on interruption), once the cells have stopped:
    /// every launch fails at once after ``LaunchedProcesses/stopAll()`` (its app was killed, no new
    /// one starts), and a folder cannot be created once `stopping` is set (``create(_:)``), so
    /// nothing is made under the folders after they go. The deadline is for a cell stuck in a
    /// file system call.
    static func removeAll() {
        cells.lock()
        stopping = true
        let deadline = Date().addingTimeInterval(3)
        while activeCells > 0 && cells.wait(until: deadline) {}
        cells.unlock()
        for folder in lock.withLock({ folders }) {
            remove(folder)
            try? FileManager.default.removeItem(atPath: folder + ".removing")
        }
    }

    /// Removes the device folders of runners that no longer exist: `upgrade-runner-devices-<pid>-…`
    /// in the temporary folder whose pid is not a live process. Every start of the command line
    /// calls it first, before it can refuse anything, so a killed run's secrets do not outlive the
    /// next start of any runner.
    static func removeAbandoned() {
        let base = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + name)
            }
        }
    }
}
