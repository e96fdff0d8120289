import Foundation
import SimRuntime

/// How a child process ended.
public enum Termination: Equatable, Sendable, CustomStringConvertible {
    case exited(Int32)
    case signaled(Int32)
    /// Still running at the deadline; it was killed with SIGKILL.
    case timedOut(seconds: Double)

    public var description: String {
        switch self {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was killed by signal \(signal) (\(Termination.signalName(signal)))"
        case .timedOut(let seconds): "timed out after \(Termination.format(seconds)) s and was killed"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        switch signal {
        case SIGKILL: "SIGKILL"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGTERM: "SIGTERM"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGINT: "SIGINT"
        default: "signal \(signal)"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Starts a child with `posix_spawn` and waits for it with a deadline.
///
/// Foundation's `Process` costs about 50 ms a spawn on these machines, `posix_spawn` + `waitpid`
/// about 6 ms, and a device launches an app for every step of every path, so this is the floor.
enum Spawner {
    struct Outcome {
        var pid: pid_t
        var termination: Termination
    }

    /// Runs `path` with `arguments` (argv[0] included) and `environment`, stdin from /dev/null and
    /// stdout and stderr both appended to `logPath`, in a process group of its own so a timeout
    /// also ends anything it started.
    ///
    /// `inheritedLock`, the device lock's descriptor, becomes the child's descriptor 3 (every other
    /// descriptor of this process is close-on-exec): a `flock` is shared by every copy of its
    /// descriptor, so the device stays locked while the app runs, even if this process is gone.
    static func run(
        path: String, arguments: [String], environment: [String], logPath: String,
        timeout: Double, inheritedLock: Int32? = nil, confinedTo: [String]? = nil
    ) throws(DeviceError) -> Outcome {
        guard let confinedTo else {
            return try spawnAndWait(
                path: path, arguments: arguments, environment: environment, logPath: logPath, timeout: timeout,
                inheritedLock: inheritedLock)
        }
        // From a thread that can write only beneath `confinedTo`, which the child inherits; the
        // thread waits for the child too, since the child dies with the thread that started it
        // (PR_SET_PDEATHSIG, see claunch_die_with_parent).
        let outcome = WriteConfinement.onConfinedThread(writableUnder: confinedTo) { () -> Result<Outcome, DeviceError> in
            Result { () throws(DeviceError) -> Outcome in
                try spawnAndWait(
                    path: path, arguments: arguments, environment: environment, logPath: logPath, timeout: timeout,
                    inheritedLock: inheritedLock)
            }
        }
        // No Landlock in this kernel: the launch goes unconfined, as before confinement existed.
        guard let outcome else {
            return try spawnAndWait(
                path: path, arguments: arguments, environment: environment, logPath: logPath, timeout: timeout,
                inheritedLock: inheritedLock)
        }
        return try outcome.get()
    }

    private static func spawnAndWait(
        path: String, arguments: [String], environment: [String], logPath: String, timeout: Double, inheritedLock: Int32?
    ) throws(DeviceError) -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        if let inheritedLock, inheritedLock >= 0 { posix_spawn_file_actions_adddup2(&actions, inheritedLock, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = LaunchedProcesses.spawn(&pid) { pid in
            var result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            // ETXTBSY: another thread of this process was writing an executable while a third spawned a
            // child, and that child held the write descriptor until its own exec. It passes in moments.
            var attempts = 0
            while result == ETXTBSY && attempts < 200 {
                attempts += 1
                usleep(2_000)
                result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
            }
            return result
        }
        guard spawned == 0 else {
            if spawned == ECANCELED { throw .interrupted }
            throw .spawnFailed(path, errno: spawned)
        }
        defer {
            LaunchedProcesses.ended(pid)
            LaunchedProcesses.endOrphans()
        }
        let termination = wait(for: pid, timeout: timeout)
        // An app killed because the runner was interrupted tells nothing about the app.
        if LaunchedProcesses.isStopped { throw .interrupted }
        return Outcome(pid: pid, termination: termination)
    }

    /// Waits for `pid`; at the deadline kills its process group. Once it has ended, whatever it left in
    /// its process group is killed (the zombie still holds the group's id, so no other group can have
    /// it), and after it is reaped, what it orphaned elsewhere (``LaunchTree``). The zombie is only
    /// reaped after the watchdog is disarmed, so the watchdog can never signal a recycled pid.
    private static func wait(for pid: pid_t, timeout: Double) -> Termination {
        let watchdog = Watchdog(pid: pid)
        let deadline = DispatchWorkItem { watchdog.fire() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        let fired = watchdog.disarm()
        deadline.cancel()
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, 0) } while reaped == -1 && errno == EINTR
        if fired { return .timedOut(seconds: timeout) }
        // The child's status could not be read (something else reaped it): never a clean exit.
        guard reaped == pid else { return .exited(-1) }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }

    private final class Watchdog: @unchecked Sendable {
        private let lock = NSLock()
        private let pid: pid_t
        private var finished = false
        private var fired = false

        init(pid: pid_t) { self.pid = pid }

        func fire() {
            lock.withLock {
                guard !finished else { return }
                fired = true
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
            }
        }

        /// Stops the watchdog; says whether it had already fired.
        func disarm() -> Bool {
            lock.withLock {
                finished = true
                return fired
            }
        }
    }
}

/// The app processes this process has launched and not yet reaped.
public enum LaunchedProcesses {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: Set<pid_t> = []
    nonisolated(unsafe) private static var stopped = false

    /// Spawns through `body` and records the child, unless ``stopAll()`` was called: then nothing
    /// is spawned and the answer is ECANCELED.
    static func spawn(_ pid: inout pid_t, _ body: (inout pid_t) -> Int32) -> Int32 {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return ECANCELED }
        let result = body(&pid)
        if result == 0 { running.insert(pid) }
        return result
    }

    static func ended(_ pid: pid_t) { lock.withLock { _ = running.remove(pid) } }

    /// Ends what launches orphaned (``LaunchTree/endOrphans(except:)``), under the lock that
    /// spawning takes, so that a launch being started is never taken for an orphan.
    static func endOrphans() {
        lock.withLock { LaunchTree.endOrphans(except: running) }
    }

    /// Whether ``stopAll()`` was called: the runner is being interrupted.
    public static var isStopped: Bool { lock.withLock { stopped } }

    /// Stops launching and kills every running app with SIGKILL, with its process group: an
    /// interrupted runner stops its apps before it removes their devices, so that none writes there
    /// (or starts) after it.
    public static func stopAll() {
        let pids = lock.withLock {
            stopped = true
            return running
        }
        for pid in pids {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
    }
}
