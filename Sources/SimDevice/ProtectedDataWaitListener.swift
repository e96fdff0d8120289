import Foundation
import SimPlatform
import SimRuntime

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
