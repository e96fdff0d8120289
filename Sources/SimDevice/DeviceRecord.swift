import Foundation
import SimRuntime

/// Whether a simulated device is running.
public enum PowerState: String, Codable, Sendable {
    case booted
    case shutdown
}

/// The contents of `<UDID>/device.json`: what a device is and the state it is in.
public struct DeviceRecord: Codable, Equatable, Sendable {
    /// The layout version of the device folder, for a future change of layout.
    public var formatVersion: Int
    public var udid: String
    public var name: String
    /// The model name, as simctl's device types name them (`iPhone 15`); informational.
    public var deviceType: String
    public var runtime: RuntimeVersion
    public var state: PowerState
    public var lockState: LockState
    /// The device clock. It does not run: `advance-clock` moves it, and each launch sees it.
    public var clock: Date
    /// Whether a passcode is set (without one, `…WhenPasscodeSetThisDeviceOnly` items cannot be added).
    public var passcodeSet: Bool
    /// The biometry enrollment generation: `device biometry --change` (a finger added or removed, Face
    /// ID enrolled again) moves it; `.biometryCurrentSet` items of an earlier one are invalidated.
    /// Nil (absent from device.json): 1, the enrollment a device starts with.
    public var biometryGeneration: Int?

    /// ``biometryGeneration`` with its default.
    public var currentBiometryGeneration: Int { biometryGeneration ?? 1 }

    public static let currentFormatVersion = 1

    public init(
        udid: String, name: String, deviceType: String = "iPhone 15", runtime: RuntimeVersion,
        state: PowerState = .shutdown, lockState: LockState = .beforeFirstUnlock, clock: Date,
        passcodeSet: Bool = true
    ) {
        self.formatVersion = DeviceRecord.currentFormatVersion
        self.udid = udid
        self.name = name
        self.deviceType = deviceType
        self.runtime = runtime
        self.state = state
        self.lockState = lockState
        self.clock = clock
        self.passcodeSet = passcodeSet
    }
}

/// Where everything of one device lives, relative to its folder `<devices root>/<UDID>`.
public struct DeviceLayout: Sendable, Equatable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    private func path(_ relative: String) -> String { directory + "/" + relative }

    public var recordPath: String { path("device.json") }
    /// The lock state as one word, read by app processes on every check.
    public var lockStatePath: String { path("lockstate") }
    /// The file that the OS lock of a run is taken on.
    public var lockFilePath: String { path("device.lock") }
    /// The per-device key of keyed digests in keychain dumps.
    public var digestKeyPath: String { path("digest.key") }
    /// Install, upgrade, downgrade, uninstall and erase events, one JSON object a line.
    public var historyPath: String { path("history.jsonl") }
    /// What the device and each peer of its user agreed on at their last keychain sync, one file a peer.
    public var keychainSyncDirectory: String { path("keychain-sync") }
    /// Launch logs that the command line writes when no other place is given.
    public var logsDirectory: String { path("logs") }
    /// Scratch space for installs being assembled; moved into place with one rename.
    public var stagingDirectory: String { path("staging") }
    public var dataDirectory: String { path("data") }
    public var keychainDirectory: String { path("data/Library/Keychains") }
    public var keychainPath: String { path("data/Library/Keychains/keychain-2-debug.db") }

    /// The folder that holds the containers of `kind`.
    public func containersDirectory(_ kind: ContainerKind) -> String { path("data/Containers/" + kind.relativePath) }
}
