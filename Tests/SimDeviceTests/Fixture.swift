import Foundation
import SimDevice
import SimRuntime
import TestSupport

/// A temporary devices root and builds folder, with one device, for one test.
final class Fixture: @unchecked Sendable {
    let directory: TemporaryDirectory
    let set: DeviceSet
    let builds: String
    let device: Device

    init(_ label: String = "device", clock: Date = Date(timeIntervalSince1970: 1_714_521_600)) throws {
        directory = try TemporaryDirectory(label)
        set = DeviceSet(root: directory.file("devices"))
        builds = directory.file("builds")
        device = try set.create(name: "Test Phone", clock: clock)
    }

    var catalog: BuildCatalog { BuildCatalog(folder: builds, productsFolder: BuiltProducts.directory.path) }

    /// Writes a TinyApp build fixture and returns it ready to install.
    func build(
        _ id: String, buildNumber: String = "100", bundleID: String = "com.example.tiny",
        groups: [String] = []
    ) throws -> Build {
        try BuildFixture.write(in: builds, id: id, bundleID: bundleID, buildNumber: buildNumber, groups: groups)
        return try catalog.build(id)
    }

    /// A booted, unlocked device with build `v1` of TinyApp installed, taken for the test.
    func bootedWithTinyApp(lockState: LockState = .unlocked) throws -> DeviceSession {
        let session = try device.acquire()
        try session.install(try build("v1"))
        try session.boot(lockState: lockState)
        return session
    }
}

/// A lock state source a test can change.
final class MutableLockState: @unchecked Sendable {
    private let lock = NSLock()
    private var state: LockState
    init(_ state: LockState) { self.state = state }
    func set(_ state: LockState) { lock.withLock { self.state = state } }
    var source: LockStateSource { LockStateSource { [self] in lock.withLock { state } } }
}

/// A seam whose entries a test can read; its planned crash point is recorded (``crashedAt``), not
/// carried out.
final class RecordingSeam: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [SeamEntry] = []
    private var crashPoint: Int?
    lazy var seam = Seam(
        plan: .none, sink: { [self] entry in lock.withLock { recorded.append(entry) } },
        crash: { [self] point in lock.withLock { crashPoint = point } })
    init(plan: FaultPlan = .none) {
        seam.setPlan(plan)
    }
    var entries: [SeamEntry] { lock.withLock { recorded } }
    /// The mutation the planned crash came right after, once it came.
    var crashedAt: Int? { lock.withLock { crashPoint } }
}
