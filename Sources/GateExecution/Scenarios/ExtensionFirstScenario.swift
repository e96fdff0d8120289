import Foundation
import GateModel
import SimDevice
import SimRuntime

/// extension-first (issue 39; in the default gate where the new build declares an extension): after an
/// update from the App Store a push can arrive before the user opens the new release, so the new
/// release's extension runs first, against data the app has not migrated yet. Seeds through the old release and launches each of its extensions (what each read at
/// its own startup is its baseline), upgrades, launches each extension of the new release before the
/// app's first launch, then the app, then each extension again, then a verify launch of the app. A
/// notification service extension and a widget run while the device is locked after its first unlock,
/// as iOS runs them (a push's preview, a timeline refresh); a share or background-task extension unlocked.
/// Judged by stays-signed-in over every launch of the new build (an extension's against its old self's
/// startup read) and reads-old-data. The plan runs it only where the new build declares an extension (a
/// run.json of a runner before that record may still name it for one without: it then runs the upgrade's steps).
enum ExtensionFirstSteps: ScenarioSteps {
    static let moments = Moment.upgraded

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        if let old = cell.previous {
            for item in old.extensions { try launch(old, item, on: device) }
        }
        try device.install(cell.new)
        for item in cell.new.extensions { try launch(cell.new, item, on: device) }
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try device.snapshot(cell.new)
        for item in cell.new.extensions { try launch(cell.new, item, on: device) }
        try device.launch(cell.new, .verify)
    }

    /// The kinds iOS runs while the device is locked (after its first unlock).
    static let runWhileLocked: Set<String> = ["notification-service", "widget"]

    /// Launches `build`'s extension `item` in the lock state iOS runs its kind in, then unlocks again.
    static func launch(_ build: Build, _ item: ExtensionBuild, on device: ScenarioDevice) throws {
        let locked = runWhileLocked.contains(item.declaration.kind)
        if locked { try device.session.lock() }
        try device.launch(build, .launch, extensionName: item.name)
        if locked { try device.session.unlock() }
    }
}
