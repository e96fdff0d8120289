import Foundation
import GateModel
import SimDevice
import SimRuntime

/// second-device (issue 38; where the release the second device keeps declares a synchronizable secret): the user has two devices, and iCloud Keychain shares their
/// synchronizable items while each updates the app on its own. The old release seeds on device A
/// (the cell's; a route's hops run too); on device B, new and empty, the user installs the release A
/// ran before the upgrade, the devices sync (`device sync`: A's synchronizable items arrive) and B's
/// app opens: what its startup read found is B's baseline. A is upgraded in place and the new build's
/// first launch migrates; the devices sync, and B's old release opens again (stays-signed-in on B
/// against B's baseline: a migration that moves or deletes a synchronizable item the old release
/// reads signs the user out on the other device). Then the reverse: what B's launch wrote syncs back,
/// and the new build opens on A (stays-signed-in on A against the seed's read), then its verify
/// (reads-old-data). Every launch names its device in findings; B's status files are
/// `NN-<build>-on-B-<mode>`. An old release that keeps no synchronizable item gives B nothing to read:
/// B's baseline is what its read found without one (usually nothing), and the cell proves what the
/// upgrade scenario does on A, with B's writes synced in.
enum SecondDeviceSteps: ScenarioSteps {
    static let moments = Moment.upgraded
    /// The user's other device.
    static let secondName = "B"

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let old = cell.old else { return }
        device.name = ScenarioDevice.firstName
        try cell.seed(device, &evidence)
        let release = cell.previous ?? old
        let second = try ScenarioDevice(
            secondTo: device, devices: cell.devices, folderName: "\(cell.unit.pathID)-\(cell.unit.scenario)-\(secondName)",
            name: secondName)
        // B ends with A: kept beside it (--keep-failed; its `-before` copy once the release is
        // installed and synced), or deleted with it.
        device.accompany(second, role: secondName)
        try second.install(release)
        try device.syncKeychain(with: second)
        device.checkpoint(second)
        try second.launch(release, .launch)
        try cell.upgrade(device, &evidence)
        try device.syncKeychain(with: second)
        try second.launch(release, .launch)
        try device.syncKeychain(with: second)
        try device.launch(cell.new, .launch)
        try device.launch(cell.new, .verify)
    }
}
