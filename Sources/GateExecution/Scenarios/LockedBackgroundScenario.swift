import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// locked-background: launches while the device is locked after first unlock, before and after
/// the migration, as background work wakes the app (locked-launch-safe).
enum LockedBackgroundSteps: ScenarioSteps {
    static let moments: Set<Moment> = []

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.explore(&evidence) { $0.lockedBackground() }
    }
}

extension Explorer {
    /// locked-background: launches while locked after first unlock, before and after the migration.
    func lockedBackground() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        let beforeMigration = attempt("locked first launch", template) { device, record in
            try device.session.lock()
            let locked = try device.launch(new, .launch, extraArguments: Self.shortWait)
            record.log = ExplorationAttempt.excerpt(locked)
            guard record.needs(locked, for: .lockedLaunchSafe) else { return }
            try locate(device, when: "after a locked launch", &record)
            try device.session.unlock()
            let recovery = try device.launch(new, .launch)
            guard record.needs(recovery, for: .lockedLaunchSafe) else { return }
            try recovered(device, recovery: recovery, &record)
        }
        let afterMigration = attempt("locked background launch", template) { device, record in
            let first = try device.launch(new, .launch)
            guard record.needs(first, for: .lockedLaunchSafe) else { return }
            try device.session.lock()
            for _ in 0..<2 {
                let background = try device.launch(new, .launch, extraArguments: Self.shortWait)
                record.log = ExplorationAttempt.excerpt(background)
                guard record.needs(background, for: .lockedLaunchSafe) else { return }
                try locate(device, when: "after a background launch while locked", &record)
            }
            try device.session.unlock()
            try recovered(device, recovery: first, &record)
        }
        return ([beforeMigration, afterMigration], "2 launches while locked after first unlock (before and after migration)")
    }
}
