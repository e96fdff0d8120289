import Foundation
import SimRuntime

/// Protected-data availability, as `UIApplication.isProtectedDataAvailable` and the
/// `protectedDataDidBecomeAvailable` notification give it on iOS.
public struct ProtectedData: Sendable {
    public let lockState: LockStateSource

    public init(lockState: LockStateSource) { self.lockState = lockState }

    /// The environment variable naming a FIFO the launcher reads: a launch about to wait for
    /// protected data writes one byte to it first, so the launcher can unlock on the app's word
    /// rather than after a guessed delay. Unset, or with no reader, nothing is written.
    public static let waitAnnouncementEnvironmentKey = "SIMDEVICE_PROTECTED_DATA_WAIT_FIFO"

    /// Whether files with complete protection (and `…WhenUnlocked` keychain items) can be read now.
    public var isAvailable: Bool { lockState.current.isProtectedDataAvailable }

    /// Waits until protected data becomes available: the "did become available" signal.
    ///
    /// The device is unlocked by another process (the runner) rewriting the lock-state file, so the
    /// wait is on that file's change (inotify on its folder, where the atomic rename lands), with
    /// `timeout` as the safety limit; where the file cannot be watched it polls every `interval`
    /// seconds. A timeout of 0 answers at once: "not now", as an app that defers rather than waits.
    /// - Returns: true when it became (or already was) available, false at the timeout.
    public func waitUntilAvailable(timeout: Double, interval: Double = 0.01) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        let watch = timeout > 0 ? lockState.path.flatMap(FileChangeWatch.init(file:)) : nil
        defer { watch?.close() }
        if isAvailable { return true }
        guard timeout > 0 else { return false }
        Self.announceWait()
        while !isAvailable {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return false }
            if let watch {
                watch.wait(milliseconds: Int32(min(Double(Int32.max), Double(deadline - now) / 1e6 + 1)))
            } else {
                usleep(useconds_t(interval * 1e6))
            }
        }
        return true
    }

    /// Writes one byte to the launcher's FIFO, if it gave one and reads it.
    private static func announceWait() {
        guard let path = ProcessInfo.processInfo.environment[waitAnnouncementEnvironmentKey] else { return }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        var byte: UInt8 = 0x57  // "W"
        _ = write(fd, &byte, 1)
        Glibc.close(fd)
    }
}

/// A watch on one file's folder for the file being replaced or written (inotify).
final class FileChangeWatch: @unchecked Sendable {
    private let fd: Int32

    /// Nil when the folder cannot be watched (the caller polls instead).
    init?(file path: String) {
        #if os(Linux)
            let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
            guard fd >= 0 else { return nil }
            let folder = (path as NSString).deletingLastPathComponent
            let mask = UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE_SELF)
            guard inotify_add_watch(fd, folder.isEmpty ? "." : folder, mask) >= 0 else {
                Glibc.close(fd)
                return nil
            }
            self.fd = fd
        #else
            return nil
        #endif
    }

    /// Returns when something changed in the folder (true), or after `milliseconds` (false); the
    /// events are drained.
    @discardableResult
    func wait(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fd, &buffer, buffer.count) > 0 {}
        return true
    }

    func close() { Glibc.close(fd) }
}

/// The launcher's side of ``ProtectedData/waitAnnouncementEnvironmentKey``: a FIFO that a launch
/// writes to when it starts waiting for protected data, so that the launcher can unlock the device
/// on that event (a prewarmed launch unlocked while it waits) instead of after a guessed delay.
public final class ProtectedDataWaitListener: @unchecked Sendable {
    public let path: String
    private let fifo: Int32
    private var wake: [Int32] = [-1, -1]

    /// Makes the FIFO at `path` (mode 0600) and holds it open, so a writer never blocks or fails.
    public init(path: String) throws(DeviceError) {
        unlink(path)
        guard mkfifo(path, 0o600) == 0 else {
            throw .fileSystem(path, reason: "cannot make a FIFO (\(FileFailure.posix(errno)))")
        }
        fifo = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fifo >= 0, pipe(&wake) == 0 else {
            let failure = errno
            if fifo >= 0 { Glibc.close(fifo) }
            unlink(path)
            throw .fileSystem(path, reason: "cannot open the FIFO (\(FileFailure.posix(failure)))")
        }
        self.path = path
    }

    /// The variable to give the launch.
    public var environment: [String: String] { [ProtectedData.waitAnnouncementEnvironmentKey: path] }

    /// Blocks until a launch announces that it waits (true), or until ``cancel()`` (false).
    public func waitForAnnouncement() -> Bool {
        var descriptors = [
            pollfd(fd: fifo, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, 2, -1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return false }
            if descriptors[0].revents & Int16(POLLIN) != 0 { return true }
            return false
        }
    }

    /// Ends a ``waitForAnnouncement()`` that is still waiting (the launch ended without waiting).
    public func cancel() {
        var byte: UInt8 = 0
        _ = write(wake[1], &byte, 1)
    }

    deinit {
        for fd in [fifo, wake[0], wake[1]] where fd >= 0 { Glibc.close(fd) }
        unlink(path)
    }
}
