import Foundation
import GateModel

/// passcode-and-biometry: after the migration the user turns the passcode off (iOS deletes every
/// WhenPasscodeSetThisDeviceOnly item; ``ScenarioDevice/removePasscode()``, `device passcode
/// --remove`), opens the app, then changes the biometric enrollment (`.biometryCurrentSet` items
/// are invalidated; `device biometry --change`), and the final re-read follows: every seeded secret
/// must read `found` (reads-old-data; stays-signed-in on each launch after the upgrade).
///
/// The passcode is turned off only when the device holds no WhenPasscodeSetThisDeviceOnly item
/// after the upgrade: iOS deletes such an item with the passcode, so its loss is the user's doing,
/// which reads-old-data cannot tell from the app's (docs/gate.md says so).
enum PasscodeAndBiometrySteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread)

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        if try !device.keychainItems().contains(where: { $0.accessible == "akpu" }) {
            try device.session.removePasscode()
        }
        try device.launch(cell.new, .launch)
        try device.session.changeBiometry()
        try cell.finalReread(device, &evidence)
    }
}
