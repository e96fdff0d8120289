import Foundation

/// The data-protection state of a simulated device, as the keychain and file protection see it.
public enum LockState: String, Codable, Sendable, CaseIterable {
    /// Booted but never unlocked since boot: a prewarmed launch after a reboot.
    case beforeFirstUnlock
    /// Unlocked at least once since boot, locked now.
    case locked
    /// Unlocked.
    case unlocked

    /// Whether the class keys of `…AfterFirstUnlock` items are available.
    public var hasBeenUnlockedSinceBoot: Bool { self != .beforeFirstUnlock }

    /// Whether `…WhenUnlocked` class keys (and complete file protection) are available.
    public var isProtectedDataAvailable: Bool { self == .unlocked }
}

/// Where a process reads the device's current lock state from. The state can change while an app
/// runs (the device is unlocked while a prewarmed app waits), so it is read on every check.
public struct LockStateSource: Sendable {
    private let read: @Sendable () -> LockState
    /// The file the state is read from, for a ``file(_:)`` source: a waiter watches it for changes.
    public let path: String?

    /// A source that reads the state through `read` on every check.
    public init(_ read: @escaping @Sendable () -> LockState) {
        self.read = read
        path = nil
    }

    private init(path: String, _ read: @escaping @Sendable () -> LockState) {
        self.read = read
        self.path = path
    }

    /// The state now.
    public var current: LockState { read() }

    /// A state that never changes.
    public static func fixed(_ state: LockState) -> LockStateSource { LockStateSource { state } }

    /// A file holding the state's raw value (`unlocked`, `locked`, `beforeFirstUnlock`). A file that
    /// is missing or unreadable reads as `locked`: the safe answer for a secret store.
    public static func file(_ path: String) -> LockStateSource {
        LockStateSource(path: path) {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let state = LockState(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { return .locked }
            return state
        }
    }
}
