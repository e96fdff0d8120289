import Foundation
import SimRuntime

/// A device taken by one run: the only way to change a device.
///
/// It holds the device's OS lock until ``release()`` or until the value or the process goes away.
public final class DeviceSession: @unchecked Sendable {
    private let deviceLock: DeviceLock
    // A launch waits on one thread while another changes the lock state (a prewarmed app waiting
    // for an unlock), so the current record is guarded.
    private let state = NSLock()
    private var current: Device

    init(device: Device, lock: DeviceLock) {
        self.current = device
        self.deviceLock = lock
    }

    /// The device as it is now (updated by every change made through this session).
    public var device: Device { state.withLock { current } }

    public var layout: DeviceLayout { device.layout }
    public var record: DeviceRecord { device.record }
    public var udid: String { device.udid }

    /// Gives the device back to other runs.
    public func release() { deviceLock.release() }

    /// Changes the record and writes `device.json` and the lock-state file.
    func update(_ change: (inout DeviceRecord) -> Void) throws(DeviceError) {
        state.lock()
        defer { state.unlock() }
        var record = current.record
        change(&record)
        try JSONFile.write(record, to: current.layout.recordPath)
        try Device.writeLockStateFile(record, current.layout)
        current = Device(layout: current.layout, record: record)
    }

    // MARK: Power, lock state and clock

    /// Boots the device. A simulator with no passcode prompt comes up unlocked; pass
    /// `.beforeFirstUnlock` for a prewarmed launch after a reboot.
    public func boot(lockState: LockState = .unlocked) throws(DeviceError) {
        try update {
            $0.state = .booted
            $0.lockState = lockState
        }
    }

    /// Shuts the device down; it boots again before first unlock unless told otherwise.
    public func shutdown() throws(DeviceError) {
        try update {
            $0.state = .shutdown
            $0.lockState = .beforeFirstUnlock
        }
    }

    /// Locks the device. A device never unlocked since boot stays before first unlock.
    public func lock() throws(DeviceError) {
        try requireBooted()
        try update { if $0.lockState == .unlocked { $0.lockState = .locked } }
    }

    /// Unlocks the device (the user entered the passcode).
    public func unlock() throws(DeviceError) {
        try requireBooted()
        try update { $0.lockState = .unlocked }
    }

    /// Moves the device clock forward (or back, with a negative interval).
    public func advanceClock(by interval: TimeInterval) throws(DeviceError) {
        try update { $0.clock = $0.clock.addingTimeInterval(interval) }
    }

    /// Sets the device clock.
    public func setClock(_ date: Date) throws(DeviceError) {
        try update { $0.clock = date }
    }

    func requireBooted() throws(DeviceError) {
        guard record.state == .booted else { throw .shutDown(udid: udid) }
    }

    // MARK: Erase and delete

    /// Factory reset: every app, container and keychain item goes; the device is shut down.
    /// Its name, runtime, clock and digest key stay.
    public func erase() throws(DeviceError) {
        for folder in [layout.dataDirectory, layout.stagingDirectory, layout.logsDirectory, layout.historyPath]
        where FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.removeItem(atPath: folder)
            } catch {
                throw .fileSystem(folder, reason: "cannot be removed (\(error.localizedDescription))")
            }
        }
        try Device.makeSkeleton(layout)
        try shutdown()
        HistoryEvent.append(HistoryEvent(event: "erase", clock: record.clock), to: layout)
    }

    /// Removes the device folder. The session is of no further use.
    public func delete() throws(DeviceError) {
        do {
            try FileManager.default.removeItem(atPath: layout.directory)
        } catch {
            throw .fileSystem(layout.directory, reason: "cannot be removed (\(error.localizedDescription))")
        }
        release()
    }
}

extension Device {
    init(layout: DeviceLayout, record: DeviceRecord) {
        self.layout = layout
        self.record = record
    }
}
