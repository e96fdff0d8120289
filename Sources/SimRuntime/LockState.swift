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
            if let ascii = asciiContents(path) { return LockState(rawValue: ascii) ?? .locked }
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                let state = LockState(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { return .locked }
            return state
        }
    }

    /// The file's text without the white space around it, read with one `open` and `read`, when the
    /// file is short and all ASCII (as the device writes it); nil otherwise, for Foundation to read
    /// (its first `String(contentsOfFile:)` and `CharacterSet` cost a launch a fortieth of its CPU).
    static func asciiContents(_ path: String) -> String? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        var count = 0
        while count < buffer.count {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { break }
            count += n
        }
        guard count < buffer.count else { return nil }
        let bytes = buffer[..<count]
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        // CharacterSet.whitespacesAndNewlines in ASCII: tab, line feed, vertical tab, form feed, return, space.
        func isSpace(_ byte: UInt8) -> Bool { (0x09...0x0D).contains(byte) || byte == 0x20 }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
