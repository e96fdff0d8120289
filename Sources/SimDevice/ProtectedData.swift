import Foundation
import SimRuntime

/// Protected-data availability, as `UIApplication.isProtectedDataAvailable` and the
/// `protectedDataDidBecomeAvailable` notification give it on iOS.
public struct ProtectedData: Sendable {
    public let lockState: LockStateSource

    public init(lockState: LockStateSource) { self.lockState = lockState }

    /// Whether files with complete protection (and `…WhenUnlocked` keychain items) can be read now.
    public var isAvailable: Bool { lockState.current.isProtectedDataAvailable }

    /// Waits until protected data becomes available: the "did become available" signal.
    ///
    /// The device is unlocked by another process (the runner) writing the lock-state file, so this
    /// polls that file every `interval` seconds.
    /// - Returns: true when it became (or already was) available, false at the timeout.
    public func waitUntilAvailable(timeout: Double, interval: Double = 0.01) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while !isAvailable {
            guard DispatchTime.now().uptimeNanoseconds < deadline else { return false }
            usleep(useconds_t(interval * 1e6))
        }
        return true
    }
}
