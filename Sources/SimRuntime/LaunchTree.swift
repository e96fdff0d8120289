internal import CLaunch
import Foundation

/// What a launch leaves running ends with it: the runner is a child subreaper, so a process an app
/// orphaned (a double fork, with or without `setsid`) becomes the runner's child instead of init's,
/// and ``endOrphans(except:)`` kills and reaps every such child that carries a launch context this
/// process launched (``LaunchContext/environmentKey``, its `launcherPID`) and is not a launch still
/// running. No cgroup is needed.
public enum LaunchTree {
    /// Whether this process is a subreaper (set once, at the first launch); false where the kernel
    /// has no such call, and orphans then go to init as before.
    public static let isSubreaper: Bool = claunch_become_subreaper() == 0

    /// Kills and reaps this process's children that an app's launch left behind: a child whose
    /// environment holds a launch context and whose pid is not in `running` (launches still waited
    /// for). Repeats while a kill orphans more (a killed orphan's own children come here next).
    /// Children without a launch context (anything else this process started) are never touched.
    public static func endOrphans(except running: Set<Int32>) {
        guard isSubreaper else { return }
        for _ in 0..<8 {
            let orphans = children().filter { !running.contains($0) && carriesLaunchContext($0) }
            if orphans.isEmpty { return }
            for pid in orphans { kill(pid, SIGKILL) }
            for pid in orphans {
                var status: Int32 = 0
                while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            }
        }
    }

    /// This process's children, from every thread's `/proc/self/task/<tid>/children`.
    static func children() -> [Int32] {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return [] }
        var pids: [Int32] = []
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/self/task/\(task)/children", encoding: .utf8) else { continue }
            pids += text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return pids
    }

    /// Whether `pid`'s environment (as it was started) holds a launch context that this process
    /// launched (its `launcherPID` is this process's): a process some other code started with a
    /// context of its own (a test's tool) is never taken for an orphan.
    static func carriesLaunchContext(_ pid: Int32) -> Bool {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
        let key = Array((LaunchContext.environmentKey + "=").utf8)
        let launcher = "\"launcherPID\":\(getpid())"
        let marks = [Array((launcher + ",").utf8), Array((launcher + "}").utf8)]
        return data.split(separator: 0).contains { entry in
            entry.starts(with: key) && marks.contains { mark in entry.firstRange(of: mark) != nil }
        }
    }
}
