import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// prewarm: the new build's first launch happens before first unlock, as iOS prewarms an app
/// (locked-launch-safe).
enum PrewarmSteps: ScenarioSteps {
    static let moments: Set<Moment> = []

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.explore(&evidence) { $0.prewarm() }
    }
}

extension Explorer {
    /// prewarm: the new build's first launch happens before first unlock; the device is unlocked
    /// after the app has exited (then relaunched), or while the app waits for protected data.
    func prewarm() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        let afterExit = attempt("prewarm unlock after exit", template) { device, record in
            try device.session.shutdown()
            try device.session.boot(lockState: .beforeFirstUnlock)
            let prewarmed = try device.launch(new, .launch, extraArguments: Self.shortWait)
            record.log = ExplorationAttempt.excerpt(prewarmed)
            guard record.needs(prewarmed, for: .lockedLaunchSafe) else { return }
            try locate(device, when: "after a launch before first unlock", &record)
            try device.session.unlock()
            let recovery = try device.launch(new, .launch)
            guard record.needs(recovery, for: .lockedLaunchSafe) else { return }
            try recovered(device, recovery: recovery, &record)
        }
        let whileWaiting = attempt("prewarm unlock while waiting", template) { device, record in
            try device.session.shutdown()
            try device.session.boot(lockState: .beforeFirstUnlock)
            // The unlock comes on the app's word that it waits (its platform writes to the FIFO),
            // not after a guessed delay; the app's own wait is a long safety timeout.
            let session = device.session
            let listener = try ProtectedDataWaitListener(path: session.layout.directory + "/protected-data-wait.fifo")
            let unlocker = UnlockOnAnnouncement(listener: listener, session: session)
            let waited = try device.launch(
                new, .launch, extraArguments: ["-UITestProtectedDataTimeout", "\(Int(cell.timeout))"],
                environment: listener.environment)
            // A build that deferred without waiting never announced: the device is unlocked now.
            if !unlocker.finish() { try session.unlock() }
            record.log = ExplorationAttempt.excerpt(waited)
            guard record.needs(waited, for: .lockedLaunchSafe) else { return }
            try locate(device, when: "after the launch that waited for protected data", &record)
            // A build that migrates once unlocked does it in this launch; one that deferred without
            // waiting does it in the next. Either loses nothing; the checks that follow need a
            // settled store, so the next launch comes first.
            let recovery = try device.launch(new, .launch)
            guard record.needs(recovery, for: .lockedLaunchSafe) else { return }
            try recovered(device, recovery: recovery, &record)
        }
        return ([afterExit, whileWaiting], "2 prewarm launches (unlocked after exit, unlocked while waiting)")
    }
}

/// Unlocks a device from a thread of its own when a launch announces that it waits for protected data.
private final class UnlockOnAnnouncement: @unchecked Sendable {
    private let listener: ProtectedDataWaitListener
    private let done = DispatchSemaphore(value: 0)
    private var unlocked = false

    init(listener: ProtectedDataWaitListener, session: DeviceSession) {
        self.listener = listener
        Thread.detachNewThread { [self] in
            if listener.waitForAnnouncement() { unlocked = (try? session.unlock()) != nil }
            done.signal()
        }
    }

    /// Stops listening (the launch ended) and tells whether the unlock happened.
    func finish() -> Bool {
        listener.cancel()
        done.wait()
        return unlocked
    }
}
