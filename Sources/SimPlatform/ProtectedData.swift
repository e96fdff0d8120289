import Foundation
import SimRuntime

/// Protected-data availability, as `UIApplication.isProtectedDataAvailable` and the
/// `protectedDataDidBecomeAvailable` notification give it on iOS.
public struct ProtectedData: Sendable {
    public let lockState: LockStateSource
    /// The FIFO a wait is announced on (``waitAnnouncementEnvironmentKey``); nil announces nothing.
    public let waitAnnouncement: String?

    /// Availability from `lockState`, announcing waits where this process's environment says
    /// (``waitAnnouncementEnvironmentKey``, read once here).
    public init(lockState: LockStateSource) {
        self.init(
            lockState: lockState, waitAnnouncement: ProcessInfo.processInfo.environment[Self.waitAnnouncementEnvironmentKey])
    }

    /// Availability from `lockState`, announcing waits on `waitAnnouncement` (nil: nowhere), whatever
    /// the environment holds: what a test that runs beside others in one process uses.
    public init(lockState: LockStateSource, waitAnnouncement: String?) {
        self.lockState = lockState
        self.waitAnnouncement = waitAnnouncement
    }

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
        // The common case, an unlocked device, costs one read of the lock state and no watch.
        if isAvailable { return true }
        guard timeout > 0 else { return false }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
        // The watch is made before the state is read again, so an unlock between the two is seen.
        let watch = lockState.path.flatMap(FileChangeWatch.init(file:))
        defer { watch?.close() }
        announceWait()
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
    private func announceWait() {
        guard let path = waitAnnouncement else { return }
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return }
        var byte: UInt8 = 0x57  // "W"
        _ = write(fd, &byte, 1)
        Glibc.close(fd)
    }
}

/// A watch on one file's folder for the file being replaced or written (inotify).
package final class FileChangeWatch: @unchecked Sendable {
    private let fd: Int32

    /// Nil when the folder cannot be watched (the caller polls instead).
    package init?(file path: String) {
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
    package func wait(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fd, &buffer, buffer.count) > 0 {}
        return true
    }

    package func close() { Glibc.close(fd) }
}
