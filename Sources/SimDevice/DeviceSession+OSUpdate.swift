import Foundation
import SimRuntime

extension DeviceSession {
    /// Updates the device's iOS to `runtime` (newer, or the same), as a user who installs an OS
    /// update: every app, container and keychain item stays where it is, and the device restarts,
    /// so it comes back booted and before first unlock (a launch of a prewarmed app, or a
    /// notification, may then run before the user unlocks). Every later launch answers as
    /// `runtime` does (the keychain rows that differ by version, `HarnessLaunch.runtime`).
    /// - Throws: ``DeviceError/olderRuntime(udid:current:requested:)`` for an older runtime: iOS
    ///   does not downgrade in place (a restore onto a device of that runtime does).
    public func updateOS(to runtime: RuntimeVersion) throws(DeviceError) {
        let current = record.runtime
        guard runtime >= current else { throw .olderRuntime(udid: udid, current: current, requested: runtime) }
        keychainReader.close()
        try update {
            $0.runtime = runtime
            $0.state = .booted
            $0.lockState = .beforeFirstUnlock
        }
        HistoryEvent.append(HistoryEvent(event: "os-update to \(runtime)", clock: record.clock), to: layout)
    }
}
