import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import UpgradeContract

/// A fresh device for one (path, scenario) cell: installs, launches that leave numbered status
/// files and logs in the cell's folder, snapshots, and clean-up.
final class ScenarioDevice {
    let session: DeviceSession
    let cellFolder: String
    let caseID: String
    /// What the cell's builds keep where: snapshots mark the bookkeeping items by it.
    let declarations: CaseDeclarations
    private(set) var launches: [LaunchRecord] = []
    /// Every launch of the cell's devices: this one's, and those of every copy made from it.
    let launchCount: LaunchCount
    private let timeout: Double
    /// Launches made on the device this one was cloned from, when its numbering continues theirs.
    private var numberedBefore = 0
    /// With `--keep-failed`: copy the device right before the first launch of `build`, as
    /// `<cell>-before` (``KeptDevices``: the `-before` device of a cell's launch lines), `cell` being
    /// the kept device's name.
    var checkpointPlan: (build: String, cell: String, kept: KeptDevices)?
    /// That copy, once made, and how many of ``launches`` came before it.
    private(set) var checkpoint: Device?
    private var checkpointTaken = false
    private(set) var launchesBeforeCheckpoint = 0

    /// The device clock every cell starts from, fixed so that runs repeat exactly.
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// A new device whose clock starts at `clock` (the cell's fixed ``epoch``, or for honest-status's
    /// run at a second clock, ``ClockTwin``, a date after it).
    init(
        devices: DeviceSet, name: String, runtime: RuntimeVersion, cellFolder: String,
        declarations: CaseDeclarations, timeout: Double, clock: Date = ScenarioDevice.epoch, launchCount: LaunchCount
    ) throws {
        if LaunchedProcesses.isStopped { throw DeviceError.interrupted }
        let device = try devices.create(name: name, runtime: runtime, clock: clock)
        session = try device.acquire()
        self.launchCount = launchCount
        self.cellFolder = cellFolder
        self.caseID = declarations.caseID
        self.declarations = declarations
        self.timeout = timeout
        try session.boot(lockState: .unlocked)
        try Self.createArtifactFolders(cellFolder)
    }

    /// A copy of `source` (see ``DeviceSet/clone(_:name:udid:)``) whose launches file their
    /// status files and logs in `cellFolder`.
    /// With `continuingNumbering`, the copy's launches are numbered after the source's (a device
    /// cloned mid-attempt, right after a crash, goes on where that attempt was).
    init(
        cloning source: ScenarioDevice, devices: DeviceSet, name: String, cellFolder: String,
        continuingNumbering: Bool = false
    ) throws {
        if LaunchedProcesses.isStopped { throw DeviceError.interrupted }
        session = try devices.clone(source.device, name: name).acquire()
        session.adoptContainerReads(of: source.session)
        launchCount = source.launchCount
        self.cellFolder = cellFolder
        caseID = source.caseID
        declarations = source.declarations
        timeout = source.timeout
        if continuingNumbering { numberedBefore = source.numberedBefore + source.launches.count }
        try Self.createArtifactFolders(cellFolder)
    }

    /// A new device, empty, with a backup of `source` (``DeviceSession/backup(to:)``: what travels
    /// to another device) restored onto it, booted and unlocked, its clock `source`'s; its launches
    /// file in `source`'s cell folder, numbered after `source`'s. The backup is made beside the
    /// devices (never in the artifacts: it holds the case's secrets) and removed once restored.
    init(restoring source: ScenarioDevice, devices: DeviceSet, name: String) throws {
        if LaunchedProcesses.isStopped { throw DeviceError.interrupted }
        let backup = devices.root + "/.backup-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: backup) }
        try source.session.backup(to: backup)
        var restored: BackupManifest?
        session = try Self.bootedDevice(like: source, devices: devices, name: name) { restored = try $0.restore(from: backup) }
        self.restored = restored
        launchCount = source.launchCount
        cellFolder = source.cellFolder
        caseID = source.caseID
        declarations = source.declarations
        timeout = source.timeout
        numberedBefore = source.numberedBefore + source.launches.count
    }

    /// A new device named `name` on `source`'s runtime and clock, `prepare`d (a restore), booted and
    /// unlocked; deleted again when either fails.
    private static func bootedDevice(
        like source: ScenarioDevice, devices: DeviceSet, name: String, prepare: (DeviceSession) throws -> Void = { _ in }
    ) throws -> DeviceSession {
        let device = try devices.create(name: name, runtime: source.device.record.runtime, clock: source.session.record.clock)
        let session = try device.acquire()
        do {
            try prepare(session)
            try session.boot(lockState: .unlocked)
        } catch {
            try? session.delete()
            throw error
        }
        return session
    }

    /// What the cell's first device is called where the cell has two (second-device): `A`.
    static let firstName = "A"

    /// The device's name among the cell's devices (second-device: `A` and `B`); nil in a cell of one
    /// device. Each launch record carries it, and a second device's status files name it (``LaunchRecord/stem``).
    var name: String?

    /// The device whose launch list this one's launches go into, numbered in it (a second device's
    /// launches are the cell's, in the order they ran); nil: its own.
    private var ledger: ScenarioDevice?

    /// A second device of the same user beside `source` (second-device): new and empty, on `source`'s
    /// runtime and clock, booted and unlocked; its launches file in `source`'s cell folder and join
    /// `source`'s launch list in the order they run, named `name` (`B`).
    init(secondTo source: ScenarioDevice, devices: DeviceSet, folderName: String, name: String) throws {
        if LaunchedProcesses.isStopped { throw DeviceError.interrupted }
        session = try Self.bootedDevice(like: source, devices: devices, name: folderName)
        launchCount = source.launchCount
        cellFolder = source.cellFolder
        caseID = source.caseID
        declarations = source.declarations
        timeout = source.timeout
        self.name = name
        ledger = source
    }

    /// iCloud Keychain between this device and `other`, two devices of one user
    /// (``DeviceSession/syncKeychain(with:)``, `device sync`).
    @discardableResult
    func syncKeychain(with other: ScenarioDevice) throws -> KeychainSync {
        try session.syncKeychain(with: other.session)
    }

    /// The manifest of the backup restored onto this device (``init(restoring:devices:name:)``).
    private(set) var restored: BackupManifest?

    /// Takes `other`'s launches after this device's own (a device restored from this one's backup,
    /// whose launches continue this one's numbering): the cell's launches are both devices'.
    func adoptLaunches(of other: ScenarioDevice) {
        launches += other.launches
    }

    /// The cell's `status/` and `logs/` folders.
    private static func createArtifactFolders(_ cellFolder: String) throws(GateError) {
        for folder in [ArtifactLayout.status, ArtifactLayout.logs] { try ArtifactFile.createFolder(cellFolder + "/" + folder) }
    }

    var device: Device { session.device }

    func install(_ build: Build) throws {
        _ = try session.install(build)
    }

    func uninstall(_ build: Build) throws {
        try session.uninstall(build.manifest.bundleID)
    }

    /// Launches `build` in `mode` for the cell's case (or `caseID`), and files its status and log.
    @discardableResult
    func launch(
        _ build: Build, _ mode: LaunchMode, caseID: String? = nil, faultPlan: FaultPlan = .none,
        extraArguments: [String] = [], environment: [String: String] = [:], extensionName: String? = nil
    ) throws -> LaunchRecord {
        let numbering = ledger ?? self
        let planned = plan(
            build, mode, index: numbering.numberedBefore + numbering.launches.count + 1, caseID: caseID,
            faultPlan: faultPlan, extraArguments: extraArguments, environment: environment, extensionName: extensionName)
        let result = try session.launch(build.manifest.bundleID, planned.options)
        return try file(result, of: planned)
    }

    /// One launch of ``launchTogether(_:whileRunning:)``: the build, its mode, the extension (nil:
    /// the app) and the runner's hold on its steps.
    struct TogetherLaunch {
        var build: Build
        var mode: LaunchMode
        var extensionName: String?
        var steps: StepChannel?
    }

    /// Launches several processes of the device at once (interleavings: the app's first launch and
    /// an extension's), numbered in the order given, and files each one's status and log as
    /// ``launch(_:_:caseID:faultPlan:extraArguments:environment:extensionName:)`` does.
    /// `ended(i)` is called when the i-th process has been reaped; `whileRunning` runs meanwhile.
    func launchTogether(
        _ launches: [TogetherLaunch], ended: @escaping @Sendable (Int) -> Void, whileRunning: () -> Void
    ) throws -> [LaunchRecord] {
        var planned: [PlannedLaunch] = []
        for (offset, item) in launches.enumerated() {
            var one = plan(
                item.build, item.mode, index: numberedBefore + self.launches.count + 1 + offset, caseID: nil,
                faultPlan: .none, extraArguments: [], environment: [:], extensionName: item.extensionName)
            one.options.steps = item.steps
            planned.append(one)
        }
        let results = try session.launchTogether(
            planned.map { ($0.build.manifest.bundleID, $0.options) }, ended: ended, whileRunning: whileRunning)
        var records: [LaunchRecord] = []
        for (result, one) in zip(results, planned) { records.append(try file(result, of: one)) }
        return records
    }

    /// Names the schedule the last `count` launches (made together) ran under.
    func markSchedule(_ id: String, beside name: String, last count: Int) {
        for index in launches.indices.suffix(count) { launches[index].schedule = (id, name) }
    }

    /// A launch about to be made: its number, name and options.
    struct PlannedLaunch {
        var build: Build
        var mode: LaunchMode
        var index: Int
        var caseID: String?
        var faultPlan: FaultPlan
        var arguments: [String]
        var stem: String
        var extensionName: String?
        var options: LaunchOptions
    }

    private func plan(
        _ build: Build, _ mode: LaunchMode, index: Int, caseID: String?, faultPlan: FaultPlan,
        extraArguments: [String], environment: [String: String], extensionName: String?
    ) -> PlannedLaunch {
        if let plan = checkpointPlan, !checkpointTaken, build.manifest.id == plan.build {
            checkpointTaken = true
            checkpoint = plan.kept.copy(session.device, as: plan.cell + "-before")
            launchesBeforeCheckpoint = launches.count
        }
        // Every launch of the cell, for any case, seeds and reads each secret in the cell's shape.
        var arguments =
            [LaunchMode.caseIDArgument, caseID ?? self.caseID] + SecretShape.arguments(for: declarations.shapes) + extraArguments
        if let flag = mode.argument { arguments.insert(flag, at: 0) }
        // An extension's launch (extension-first) is named by the build and the extension: `05-v2-notify-launch`.
        let stem = LaunchRecord.stem(
            index: index, build: build.manifest.id + (extensionName.map { "-" + $0 } ?? "") + LaunchRecord.deviceSuffix(name),
            mode: mode)
        launchCount.add()
        var options = LaunchOptions(
            arguments: arguments, faultPlan: faultPlan, timeout: timeout,
            logPath: ArtifactLayout.logFile(in: cellFolder, stem: stem), environment: environment)
        options.extensionName = extensionName
        return PlannedLaunch(
            build: build, mode: mode, index: index, caseID: caseID, faultPlan: faultPlan, arguments: arguments,
            stem: stem, extensionName: extensionName, options: options)
    }

    /// The record of a launch that ended: its status file filed, and where the case's secrets are now.
    private func file(_ result: LaunchResult, of planned: PlannedLaunch) throws -> LaunchRecord {
        let build = planned.build
        let launchCase = planned.caseID ?? self.caseID
        var record = LaunchRecord(
            index: planned.index, build: build.manifest.id, mode: planned.mode, caseID: launchCase,
            runtime: device.record.runtime, termination: result.termination, endedAtCrashPoint: result.endedAtCrashPoint,
            duration: result.duration, mutations: result.mutations, deviceDirectory: session.layout.directory)
        record.faultPlan = planned.faultPlan
        record.arguments = planned.arguments
        record.bundleID = build.manifest.bundleID
        record.extensionName = planned.extensionName
        record.device = name
        if planned.extensionName != nil { record.extensionLockState = session.record.lockState }
        record.read(status: result.statusFile)
        // Where the case's secrets are, while the device holds what the launch left.
        if !LaunchedProcesses.isStopped {
            // The cell's locator, or one for the extra case a launch was given.
            let locator =
                launchCase == self.caseID
                ? declarations.locator
                : SecretLocator(caseID: launchCase, labels: declarations.secretLabels, shapes: declarations.shapes)
            try record.locateSecrets(on: session, app: build, locator: locator)
        }
        if let data = result.statusFile {
            try ArtifactFile.write(data, to: ArtifactLayout.statusFile(in: cellFolder, stem: planned.stem))
        }
        if let ledger { ledger.launches.append(record) } else { launches.append(record) }
        launchedHere.append(record)
        return record
    }

    /// A digest of everything on the device an app launch can observe: every keychain item in store
    /// order (attributes, data and persistent reference), every file of every data and group
    /// container but the status file (in name order, ``FileTree``), and the lock state and clock.
    /// Two devices with equal fingerprints give the same launches; exploration uses it to not
    /// relaunch a state it has seen.
    /// `keychain`: the device's items, when the caller has just read them.
    func stateFingerprint(keychain: [KeychainItemRecord]? = nil) throws -> String {
        var hasher = SHA256()
        func add(_ text: String) { hasher.update(Data((text + "\u{0}").utf8)) }
        func add(_ data: Data) {
            add("\(data.count)")
            hasher.update(data)
        }
        // The session's record: every change of lock state and clock goes through the session,
        // which keeps it; reading device.json back would be one more device read per state.
        let record = session.record
        add("\(record.lockState.rawValue) \(record.clock.timeIntervalSince1970)")
        for item in try keychain ?? keychainItems() {
            add(item.itemClass)
            for (key, value) in item.attributes.sorted(by: { $0.key < $1.key }) { add(key + "=" + value) }
            add(item.data ?? Data())
            add(item.persistentReference)
        }
        for kind in [ContainerKind.data, .appGroup] {
            for file in session.files(of: kind) where !file.relative.hasSuffix("/" + LaunchStatus.relativePath) {
                add(file.relative)
                add(file.contents ?? Data())
            }
        }
        return hasher.finalize().hexDigits
    }

    func snapshot(_ build: Build, keychain: [KeychainItemRecord]? = nil) throws -> DeviceSnapshot {
        try DeviceSnapshot.take(
            session, bundleID: build.manifest.bundleID, groups: build.identity.applicationGroups,
            isBookkeeping: declarations.isBookkeeping, keychain: keychain ?? keychainItems())
    }

    /// Every keychain item on the device now, through the session's open connection (the last
    /// read's items again while no launch has changed the store since).
    func keychainItems() throws -> [KeychainItemRecord] {
        try session.keychainItems()
    }

    /// Storage pressure while no app runs (``DeviceSession/purgeCaches()``): every app's
    /// `Library/Caches` and `tmp` and every app group container's `Library/Caches` emptied.
    @discardableResult
    func purgeCaches() throws -> CachePurge {
        try session.purgeCaches()
    }

    func advanceClock(days: Double) throws {
        try session.advanceClock(by: days * 86_400)
    }

    /// Every launch made on this device, whichever device's list numbers it (a second device's
    /// launches go to the first device's list, ``init(secondTo:devices:folderName:name:)``).
    private(set) var launchedHere: [LaunchRecord] = []

    /// The cell's other devices: the restored phone of backup-restore and backup-after-migration
    /// (role `restored`), the user's second device of second-device (role `B`). Each ends with this
    /// device (``finish(keepSnapshotFor:keep:)``): with `--keep-failed`, kept beside it when the cell
    /// keeps it, as `<cell>-<role>` with its `-before` copy (``checkpoint(_:)``); else deleted, its
    /// copy discarded.
    private var companions: [(device: ScenarioDevice, role: String, before: Device?)] = []

    /// Makes `other`, just made, one of the cell's other devices (``companions``).
    func accompany(_ other: ScenarioDevice, role: String) {
        companions.append((other, role, nil))
    }

    /// With `--keep-failed`, a copy of the companion `other` as it is now becomes its `-before`
    /// device: the state its launch lines in kept.md start from.
    func checkpoint(_ other: ScenarioDevice) {
        guard let plan = checkpointPlan, let index = companions.firstIndex(where: { $0.device === other }) else { return }
        companions[index].before = plan.kept.copy(other.device, as: plan.cell + "-" + companions[index].role + "-before")
    }

    /// Ends the cell: on failure a redacted snapshot goes to `device/` in the cell's folder
    /// (device.json, install records, keychain attributes with keyed digests, preference keys and
    /// file names with keyed digests; never a value), then the device is deleted, or with `keep`
    /// moved whole into the kept folder (``KeptDevices``) beside `before` (else its own checkpoint).
    func finish(
        keepSnapshotFor build: Build?,
        keep: (kept: KeptDevices, cell: String, attempt: String?, before: Device?)? = nil
    ) {
        defer {
            if keep == nil || keep?.before != nil, let checkpoint, let plan = checkpointPlan { plan.kept.discard(checkpoint) }
        }
        if let build {
            let folder = cellFolder + "/" + ArtifactLayout.deviceSnapshot
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try? FileManager.default.copyItem(atPath: session.layout.recordPath, toPath: folder + "/device.json")
            if let snapshot = try? snapshot(build), let data = try? snapshot.encoded() {
                try? data.write(to: URL(fileURLWithPath: folder + "/snapshot.json"))
            }
            for app in device.installedApps() {
                try? FileManager.default.copyItem(
                    atPath: app.container.path + "/install.json",
                    toPath: folder + "/install-\(app.bundleID).json")
            }
        }
        let companions = self.companions
        self.companions = []
        if let keep {
            let before = keep.before ?? checkpoint
            // The launches made on the cell's other devices are listed with those devices.
            let elsewhere = Set(companions.flatMap { $0.device.launchedHere.map(\.index) })
            keep.kept.keep(
                self, cell: keep.cell, attempt: keep.attempt, before: before,
                launches: launches.filter { !elsewhere.contains($0.index) },
                skipped: keep.before == nil && checkpoint != nil ? launchesBeforeCheckpoint : 0)
            for companion in companions {
                keep.kept.keep(
                    companion.device, cell: keep.cell, attempt: keep.attempt, before: companion.before,
                    launches: companion.device.launchedHere, role: companion.role)
            }
            return
        }
        for companion in companions {
            companion.device.finish(keepSnapshotFor: nil)
            if let before = companion.before { checkpointPlan?.kept.discard(before) }
        }
        try? session.delete()
        session.release()
    }
}

/// A count of launches that every device of one cell adds to (``CellInputs/launches``).
final class LaunchCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
