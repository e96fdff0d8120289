import Foundation

/// The temporary device folders of the runs in this process. Simulated keychains hold the seeded
/// secrets in the clear, so the folders go when a run ends, when the runner is interrupted
/// (``InterruptHandling``), and, for a runner that was killed outright, at the next start
/// (folders whose process is gone).
enum TemporaryDevices {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var folders: Set<String> = []
    static let prefix = "upgrade-runner-devices-"

    static func register(_ folder: String) {
        lock.withLock { _ = folders.insert(folder) }
        removeAbandoned()
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

    /// Removes every folder still registered (on interruption).
    static func removeAll() {
        for folder in lock.withLock({ folders }) { remove(folder) }
    }

    /// Removes the device folders of runners that no longer exist: `upgrade-runner-devices-<pid>-…`
    /// in the temporary folder whose pid is not a live process.
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
