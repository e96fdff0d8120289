import Foundation
import GateModel
import SimDevice
import SimRuntime

/// One launch as the gate records it: what the launch was given and what it left, read once right
/// after it while the device still holds what it left. Facts only; the checkers judge them
/// (``HonestStatus`` every launch's status file, ``ReadsOldData`` the verify launches' places).
struct LaunchRecord: Sendable {
    /// 1-based position among the cell's launches (the `NN` of its artifact names).
    var index: Int
    var build: String
    var mode: LaunchMode
    /// The case the launch was given (the cell's, or an extra case's: ``ExtraCase``).
    var caseID: String
    /// The runtime of the device it ran on.
    var runtime: RuntimeVersion
    var termination: Termination
    var endedAtCrashPoint: Bool
    /// The status file the app wrote, or nil when it wrote none or it did not decode.
    var status: LaunchStatus?
    /// Why a status file that exists did not decode (``JSONProblem/describe(_:)``).
    var statusDecodeFailure: String?
    /// The status file's bytes as the app wrote them (also written to the cell's `status/` folder).
    var statusBytes: Data?
    var duration: Double
    /// The launch's store operations (names and statuses only).
    var mutations: [SeamEntry]
    /// The device's folder, from which a refused path on the device is named (`<device>/...`).
    var deviceDirectory: String
    /// Where each of the case's declared secrets was on the device right after the launch: read
    /// for a verify launch, and for one whose report makes a claim the device can contradict
    /// (``HonestStatus/claims(_:of:labels:)``); nil when the device was not read.
    var secretPlaces: [String: SecretLocator.Place]?
    /// Why the device could not be read for ``secretPlaces`` after a launch that is not a verify.
    var secretPlacesFailure: String?
    /// The faults, crash point and power loss the launch was given.
    var faultPlan: FaultPlan = .none
    /// The app's launch arguments (mode, case id, shapes, the scenario's own), for the launch lines
    /// of a kept device (``KeptDevices``).
    var arguments: [String] = []
    /// The bundle id launched.
    var bundleID = ""
    /// The app extension this launch ran (build.json's name), or nil for the app's own launch.
    var extensionName: String?
    /// Set on both launches of an interleavings schedule: its id, and the extension run beside the app
    /// (kept.md replays the pair with one `launch --beside NAME --schedule ID` line).
    var schedule: (id: String, beside: String)?
    /// The lock state an extension's launch ran in (extension-first runs some kinds locked); nil for an app's.
    var extensionLockState: LockState?
    /// The device of the cell the launch ran on, where a cell has two (second-device: `A`, the cell's
    /// own, and `B`, the user's other device); nil in a cell of one device. Findings name it.
    var device: String?

    /// What a planned power loss took from the launch (its `power.loss` entries: names only).
    var lostToPowerLoss: [SeamSubject] { mutations.filter { $0.operation == .powerLoss }.map(\.subject) }

    /// `NN-<build>-<mode>`, the stem of its status and log file names.
    /// `03-v2-launch`; an extension's launch names the extension too (`03-v2-notify-launch`).
    /// A second device's launch names its device (`07-v1-on-B-launch`); the cell's own device keeps its names.
    var stem: String {
        Self.stem(
            index: index, build: build + (extensionName.map { "-" + $0 } ?? "") + Self.deviceSuffix(device), mode: mode)
    }

    /// `-on-B` for a launch on a cell's second device; nothing for its own (`A`, or a cell of one device).
    static func deviceSuffix(_ device: String?) -> String {
        guard let device, device != ScenarioDevice.firstName else { return "" }
        return "-on-" + device
    }

    /// The index is at least two digits (`03`), as `%02d` writes it; without `String(format:)`,
    /// which costs more than the rest of a stem and runs for every finding and lookup by stem.
    static func stem(index: Int, build: String, mode: LaunchMode) -> String {
        let number = String(index)
        return (index >= 0 && index < 10 ? "0" + number : number) + "-" + build + "-" + mode.rawValue
    }

    /// Why a status file that exists could not be read, as the conditions that needed it say.
    var statusProblem: String? {
        statusDecodeFailure.map { "\(LaunchStatus.relativePath): not a status file (\($0))" }
    }

    /// The names of the items the launch reported written.
    var writtenNames: [String] { (status?.items ?? []).filter { $0.result == .written }.map(\.name) }

    var exitedCleanly: Bool { termination == .exited(0) }

    /// Whether the runner killed the launch at `--timeout`: on a loaded machine a slow launch is no
    /// finding about the app, so every condition that needed it is UNKNOWN, never FAIL.
    var timedOut: Bool {
        if case .timedOut = termination { return true }
        return false
    }

    /// The reason a timed-out launch gives, naming the flag that would give it more time.
    var timeoutReason: String {
        "\(stem) \(termination) (timed out: the verdict is UNKNOWN, not FAIL; a loaded machine may need a larger --timeout)"
    }

    /// Records the status file a launch left (nil: none): its bytes, and what they decode to or why not.
    mutating func read(status data: Data?) {
        statusBytes = data
        guard let data else { return }
        do {
            status = try LaunchStatus.decode(data)
        } catch {
            statusDecodeFailure = JSONProblem.describe(error)
        }
    }

    /// Records where the case's secrets (`locator`'s, for this launch's case) are on the device
    /// `session` holds, for the app `build`, right after the launch: after a verify launch
    /// (reads-old-data's ground truth), and after one whose report claims one of them
    /// (honest-status's); other launches do not read the device.
    /// - Throws: the device error of a verify launch's read (it stops the cell); another launch's
    ///   is recorded (``secretPlacesFailure``) for honest-status.
    mutating func locateSecrets(
        on session: DeviceSession, app build: Build, locator: SecretLocator
    ) throws {
        let labels = locator.labels
        if mode == .verify {
            secretPlaces = locator.locate(on: session, app: build, keychain: try session.keychainItems())
        } else if let status, !HonestStatus.claims(status, of: mode, labels: labels).isEmpty {
            do {
                secretPlaces = locator.locate(on: session, app: build, keychain: try session.keychainItems())
            } catch {
                secretPlacesFailure = "\(error)"
            }
        }
    }
}
