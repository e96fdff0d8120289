import FileUtility
import Foundation

/// A fresh directory under the system's temporary folder, removed when the value is released.
/// Each test makes its own, so tests run in parallel without sharing files.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL
    public var path: String { url.path }

    public init(_ label: String = "test") throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory(), isDirectory: true)
        url = base.appendingPathComponent("upgrade-runner-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Removes the folder with ``TreeRemoval``, which goes on past an entry that vanished as it went:
    /// SQLite deletes a keychain's `-wal` and `-shm` files when its last connection closes, which may
    /// be at this moment on another thread. Foundation's `removeItem` stopped at that entry and left
    /// the ones after it.
    deinit { _ = TreeRemoval.remove(url.path) }
}

/// Waits on file descriptors, not the clock: a wait ends when its event comes, and the long safety
/// timeout only bounds a test whose event never comes (a failure, not a delay).
public enum EventWait {
    /// Waits until `fd` has something to read or was hung up; false at the safety timeout.
    @discardableResult
    public static func readable(_ fd: Int32, timeout seconds: Double = 120) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        var result: Int32
        repeat { result = poll(&entry, 1, Int32(seconds * 1000)) } while result < 0 && errno == EINTR
        return result > 0
    }

    /// Waits until every writer of the FIFO `fd` (opened for reading) has closed it: the process
    /// that held it open has ended. Reads and drops what it is sent meanwhile.
    @discardableResult
    public static func hangUp(_ fd: Int32, timeout seconds: Double = 120) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 256)
        while readable(fd, timeout: seconds) {
            if read(fd, &buffer, buffer.count) <= 0 { return true }
        }
        return false
    }
}

/// The lines a child process writes to a pipe, read as they come.
public final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var pending = Data()
    private let lock = NSLock()
    private var collected: [String] = []

    public init(_ pipe: Pipe) { handle = pipe.fileHandleForReading }

    /// Blocks until a line satisfying `matches` arrives (true) or the writer closes the pipe (false).
    public func wait(for matches: (String) -> Bool) -> Bool {
        while true {
            while let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[pending.index(after: newline)...])
                lock.withLock { collected.append(line) }
                if matches(line) { return true }
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return false }
            pending.append(chunk)
        }
    }

    /// Reads the rest until the writer closes the pipe, and returns every line read.
    public func readToEnd() -> [String] {
        _ = wait { _ in false }
        return lock.withLock { collected }
    }
}
