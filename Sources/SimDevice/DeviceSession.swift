import FileUtility
import Foundation
import SimRuntime
import SimSecurity

/// A device taken by one run: the only way to change a device.
///
/// It holds the device's OS lock until ``release()`` or until the value or the process goes away.
public final class DeviceSession: @unchecked Sendable {
    let deviceLock: DeviceLock
    // A launch waits on one thread while another changes the lock state (a prewarmed app waiting
    // for an unlock), so the current record is guarded.
    private let state = NSLock()
    private var current: Device
    // What a launch of each bundle id needs from the containers. Nothing but this session changes
    // the containers while it holds the device, so it is kept until an install, uninstall or erase.
    private var targets: [String: LaunchTarget] = [:]
    private let targetLock = NSLock()
    let keychainReader = KeychainReader()
    // The containers of each kind and the installed apps, read once and kept, on the same terms as
    // the launch targets: the gate looks up the app's containers after most launches (where the
    // case's secrets are, snapshots), and each lookup read every container's metadata file.
    private var containerIndex: [ContainerKind: [Container]] = [:]
    private var installed: [InstalledApp]?
    // Counts the changes, so that a read made before one is not kept after it.
    private var containerGeneration = 0
    private var redaction: DeviceRedaction?
    // Every file of the containers of a kind with its bytes, read once per device state: only a
    // launch (an app's process), an install, an uninstall or an erase through this session changes
    // what the containers hold, and each forgets it. The gate reads a state's files up to three
    // times (where the case's secrets are, the state's fingerprint, a snapshot).
    private var containerFiles: [ContainerKind: [ContainerFile]] = [:]

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
    public func release() {
        keychainReader.close()
        deviceLock.release()
    }

    deinit { keychainReader.close() }

    /// Every keychain item on the device, as ``Device/keychainItems()`` reads them, through one
    /// connection the session keeps open between reads (``KeychainReader``): the items of the
    /// last read again while no other connection has committed a change since.
    public func keychainItems() throws(DeviceError) -> [KeychainItemRecord] {
        try keychainReader.items(of: device)
    }

    /// The installed app and its containers, from the cache or the device.
    func launchTarget(_ bundleID: String, extension name: String? = nil) throws(DeviceError) -> LaunchTarget {
        let key = name.map { bundleID + "/" + $0 } ?? bundleID
        if let cached = state.withLock({ targets[key] }) { return cached }
        // One thread at a time finds or creates the containers: two first launches at once would
        // otherwise create two data containers for one app.
        targetLock.lock()
        defer { targetLock.unlock() }
        if let cached = state.withLock({ targets[key] }) { return cached }
        guard let app = installedApps().first(where: { $0.bundleID == bundleID }) else {
            throw .notInstalled(bundleID: bundleID, udid: udid)
        }
        // An extension runs as its own process: its own bundle id, identity and data container.
        var process = LaunchTarget.Process(
            bundleID: bundleID, identity: app.record.identity, executablePath: app.executablePath, extensionName: nil)
        if let name {
            guard let item = app.installedExtension(name) else {
                // Not an error case of its own (DeviceError is public): the extension's bundle id is not installed.
                throw .notInstalled(bundleID: bundleID + "." + name, udid: udid)
            }
            process = LaunchTarget.Process(
                bundleID: item.bundleID, identity: item.identity, executablePath: app.extensionExecutablePath(item),
                extensionName: name)
        }
        let data: String
        if let existing = dataContainer(process.bundleID) {
            data = existing.path
        } else {
            data = try ContainerDirectory.create(
                .data, identifier: process.bundleID,
                at: layout.containersDirectory(.data) + "/" + UUID().uuidString
            ).path
            containersChanged()
        }
        var groups: [String: String] = [:]
        for group in process.identity.applicationGroups {
            if let container = groupContainer(group) { groups[group] = container.path }
        }
        let target = LaunchTarget(app: app, dataContainer: data, groups: groups, process: process)
        state.withLock { targets[key] = target }
        return target
    }

    /// Forgets cached launch targets, containers and installed apps after the containers changed.
    func containersChanged() {
        state.withLock {
            targets.removeAll()
            containerIndex.removeAll()
            installed = nil
            containerFiles.removeAll()
            containerGeneration += 1
        }
    }

    /// Forgets the containers' files (``files(of:)``): an app may have changed them, or the runner
    /// did (a scenario that removes a file between launches).
    public func contentsChanged() {
        state.withLock {
            containerFiles.removeAll()
            containerGeneration += 1
        }
    }

    /// Every regular file under the containers folder of `kind` (`<uuid>/Documents/...`, in
    /// ``FileTree`` order), with its bytes: read once until a launch, install, uninstall or erase
    /// through this session.
    public func files(of kind: ContainerKind) -> [ContainerFile] {
        let (cached, generation) = state.withLock { (containerFiles[kind], containerGeneration) }
        if let cached { return cached }
        let root = layout.containersDirectory(kind)
        let read = FileTree.files(under: root).map {
            ContainerFile(relative: $0, contents: FileManager.default.contents(atPath: root + "/" + $0))
        }
        state.withLock { if containerGeneration == generation { containerFiles[kind] = read } }
        return read
    }

    /// Every regular file of `container` (paths relative to it), with its bytes, as
    /// `FileTree.files(under: container.path, pruning: pruned)` lists them: from ``files(of:)``.
    public func files(in container: Container, pruning pruned: Set<String> = []) -> [ContainerFile] {
        let prefix = container.uuid + "/"
        let skipped = pruned.map { $0 + "/" }
        return files(of: container.kind).compactMap { file in
            guard file.relative.hasPrefix(prefix) else { return nil }
            let relative = String(file.relative.dropFirst(prefix.count))
            guard !skipped.contains(where: { relative.hasPrefix($0) }) else { return nil }
            return ContainerFile(relative: relative, contents: file.contents)
        }
    }

    /// The device's installed apps (``Device/installedApps()``), read once until an install,
    /// uninstall or erase through this session.
    public func installedApps() -> [InstalledApp] {
        let (cached, generation) = state.withLock { (installed, containerGeneration) }
        if let cached { return cached }
        let apps = device.installedApps()
        state.withLock { if containerGeneration == generation { installed = apps } }
        return apps
    }

    /// Takes what `source` has read of its containers (their index and the installed apps) for this
    /// session's device, a copy of `source`'s made since (``DeviceSet/clone(_:name:udid:)``): the
    /// same containers, each under this device's folder. A copy's first launch then reads no
    /// container's metadata again.
    public func adoptContainerReads(of source: DeviceSession) {
        let from = source.layout.directory + "/", to = layout.directory + "/"
        let (index, apps) = source.state.withLock { (source.containerIndex, source.installed) }
        func moved(_ container: Container) -> Container? {
            guard container.path.hasPrefix(from) else { return nil }
            var copy = container
            copy.path = to + container.path.dropFirst(from.count)
            return copy
        }
        state.withLock {
            for (kind, containers) in index where containerIndex[kind] == nil {
                let copies = containers.compactMap(moved)
                if copies.count == containers.count { containerIndex[kind] = copies }
            }
            if installed == nil, let apps {
                let copies = apps.compactMap { app in moved(app.container).map { InstalledApp(container: $0, record: app.record) }
                }
                if copies.count == apps.count { installed = copies }
            }
        }
    }

    /// The data container of `bundleID` (``Device/dataContainer(_:)``), from the containers read
    /// once until this session changes them.
    public func dataContainer(_ bundleID: String) -> Container? {
        containers(.data).first { $0.identifier == bundleID }
    }

    /// The shared container of an app group (``Device/groupContainer(_:)``), from the containers
    /// read once until this session changes them.
    public func groupContainer(_ groupID: String) -> Container? {
        containers(.appGroup).first { $0.identifier == groupID }
    }

    private func containers(_ kind: ContainerKind) -> [Container] {
        let (cached, generation) = state.withLock { (containerIndex[kind], containerGeneration) }
        if let cached { return cached }
        let found = ContainerDirectory.all(kind, in: layout)
        state.withLock { if containerGeneration == generation { containerIndex[kind] = found } }
        return found
    }

    /// The device's redaction (``DeviceRedaction``), its digest key read once.
    public func deviceRedaction() throws(DeviceError) -> DeviceRedaction {
        if let cached = state.withLock({ redaction }) { return cached }
        let made = try DeviceRedaction(device)
        state.withLock { redaction = made }
        return made
    }

    /// Rewrites the lock-state file apps read from the record, under the record's lock: a lock or
    /// unlock on another thread (the runner unlocking while a prewarmed app waits) can then never be
    /// overwritten by an older state read a moment before.
    func refreshLockStateFile() throws(DeviceError) {
        state.lock()
        defer { state.unlock() }
        try Device.writeLockStateFile(current.record, current.layout)
    }

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
        keychainReader.close()
        for folder in [layout.dataDirectory, layout.stagingDirectory, layout.logsDirectory, layout.historyPath]
        where FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.removeItem(atPath: folder)
            } catch {
                throw .fileSystem(folder, reason: "cannot be removed (\(error.localizedDescription))")
            }
        }
        containersChanged()
        try Device.makeSkeleton(layout)
        try shutdown()
        HistoryEvent.append(HistoryEvent(event: "erase", clock: record.clock), to: layout)
    }

    /// Removes the device folder. The session is of no further use.
    public func delete() throws(DeviceError) {
        keychainReader.close()
        let status = TreeRemoval.remove(layout.directory)
        guard status == 0 else {
            throw .fileSystem(layout.directory, reason: "cannot be removed (\(FileFailure.posix(status)))")
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

/// A file of a container, with its bytes (nil when it could not be read).
public struct ContainerFile: Sendable, Equatable {
    public var relative: String
    public var contents: Data?
}

/// What launching one bundle id needs: the installed app, its data container, its group containers.
struct LaunchTarget {
    var app: InstalledApp
    var dataContainer: String
    var groups: [String: String]
    /// The process launched: the app's, or one of its extensions'.
    var process: Process

    struct Process {
        var bundleID: String
        var identity: AppIdentity
        var executablePath: String
        var extensionName: String?
    }
}
