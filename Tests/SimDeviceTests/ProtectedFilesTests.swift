import Foundation
@testable import SimDevice
import SimRuntime
import Testing
import TestSupport
import SimSupervision

@Suite struct ProtectedFilesTests {
    private func make(_ directory: TemporaryDirectory, _ state: MutableLockState, seam: Seam = Seam()) -> (ProtectedFiles, URL) {
        let home = directory.url.appendingPathComponent("home")
        return (ProtectedFiles(containers: [home], lockState: state.source, seam: seam), home)
    }

    @Test(
        "reads follow the protection class and the lock state",
        arguments: [
            (FileProtection.complete, LockState.unlocked, true), (.complete, .locked, false),
            (.complete, .beforeFirstUnlock, false),
            (.completeUnlessOpen, .locked, false),
            (.completeUntilFirstUserAuthentication, .locked, true),
            (.completeUntilFirstUserAuthentication, .beforeFirstUnlock, false),
            (.none, .beforeFirstUnlock, true),
        ])
    func readMatrix(protection: FileProtection, state: LockState, readable: Bool) throws {
        let directory = try TemporaryDirectory("files")
        let lock = MutableLockState(.unlocked)
        let (files, home) = make(directory, lock)
        let url = home.appendingPathComponent("Library/Application Support/session.archive")
        try files.write(Data("payload".utf8), to: url, protection: protection)
        #expect(files.protection(of: url) == protection)
        lock.set(state)
        if readable {
            #expect(try files.read(url) == Data("payload".utf8))
        } else {
            #expect(throws: FileAccessError(path: "Library/Application Support/session.archive", operation: nil, code: EPERM)) {
                try files.read(url)
            }
        }
    }

    @Test("writes while locked: complete fails, complete-unless-open may create, removal always works")
    func writesWhileLocked() throws {
        let directory = try TemporaryDirectory("files")
        let lock = MutableLockState(.locked)
        let recording = RecordingSeam()
        let (files, home) = make(directory, lock, seam: recording.seam)
        let a = home.appendingPathComponent("Documents/a")
        #expect(throws: FileAccessError.self) { try files.write(Data("x".utf8), to: a, protection: .complete) }
        #expect(!files.fileExists(a))
        let b = home.appendingPathComponent("Documents/b")
        try files.write(Data("x".utf8), to: b, protection: .completeUnlessOpen)
        #expect(throws: FileAccessError.self) { try files.write(Data("y".utf8), to: b, protection: .completeUnlessOpen) }
        try files.remove(b)
        #expect(!files.fileExists(b))
        #expect(recording.entries.map(\.operation) == [.fileWrite, .fileWrite, .fileWrite, .fileRemove])
        #expect(recording.entries.map(\.status) == [EPERM, 0, EPERM, 0])
        #expect(recording.entries.map(\.subject.name) == ["Documents/a", "Documents/b", "Documents/b", "Documents/b"])
    }

    @Test("a write without a class takes its folder's, as do the folders it makes; with one, it keeps it")
    func inheritsTheFolderClass() throws {
        let directory = try TemporaryDirectory("files")
        let (files, home) = make(directory, MutableLockState(.unlocked))
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try #require(FileProtection.set(.complete, atPath: home.path) == 0)
        let inherited = home.appendingPathComponent("Library/Application Support/session.archive")
        try files.write(Data("a".utf8), to: inherited)
        #expect(files.protection(of: inherited) == .complete)
        #expect(FileProtection.stored(atPath: home.path + "/Library/Application Support") == .complete)
        let explicit = home.appendingPathComponent("Library/Caches/feed.json")
        try files.write(Data("b".utf8), to: explicit, protection: .default)
        #expect(FileProtection.stored(atPath: explicit.path) == .completeUntilFirstUserAuthentication)
    }

    @Test("a path outside the app's containers is refused")
    func sandbox() throws {
        let directory = try TemporaryDirectory("files")
        let (files, _) = make(directory, MutableLockState(.unlocked))
        #expect(throws: FileAccessError.self) { try files.write(Data(), to: directory.url.appendingPathComponent("elsewhere")) }
        #expect(throws: FileAccessError.self) { try files.read(directory.url.appendingPathComponent("home/../elsewhere")) }
    }

    @Test("protected data becomes available when another process unlocks the device")
    func becameAvailable() throws {
        let directory = try TemporaryDirectory("files")
        let path = directory.file("lockstate")
        try "beforeFirstUnlock\n".write(toFile: path, atomically: true, encoding: .utf8)
        let data = ProtectedData(lockState: .file(path), waitAnnouncement: nil)
        #expect(!data.isAvailable)
        #expect(!data.waitUntilAvailable(timeout: 0))
        // The unlock comes from another thread whenever it is scheduled; the wait's bound is only a
        // backstop (no clock decides the outcome).
        DispatchQueue.global().async {
            try? "unlocked\n".write(toFile: path, atomically: true, encoding: .utf8)
        }
        #expect(data.waitUntilAvailable(timeout: 600))
        #expect(data.isAvailable)
    }

    @Test("a waiter announces itself on the launcher's FIFO and wakes on the unlock's rename, not on a clock")
    func announcedWait() throws {
        let directory = try TemporaryDirectory("files")
        let path = directory.file("lockstate")
        try "beforeFirstUnlock\n".write(toFile: path, atomically: true, encoding: .utf8)
        // Each listener's path is given to the ProtectedData that announces to it, not set in the
        // environment: a wait in a test running beside this one in the process (becameAvailable)
        // would announce on it, and answer the quiet listener's question for it.
        // Timeout 0 answers at once and announces nothing: no unlock is awaited. (An announcement
        // wins over the cancel, so a byte written would make this listener answer true.)
        let quiet = try ProtectedDataWaitListener(path: directory.file("quiet.fifo"))
        #expect(!ProtectedData(lockState: .file(path), waitAnnouncement: quiet.path).waitUntilAvailable(timeout: 0))
        quiet.cancel()
        #expect(!quiet.waitForAnnouncement())
        let listener = try ProtectedDataWaitListener(path: directory.file("wait.fifo"))
        let data = ProtectedData(lockState: .file(path), waitAnnouncement: listener.path)
        let result = LockedBox<Bool?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            result.set(data.waitUntilAvailable(timeout: 600))
            finished.signal()
        }
        #expect(listener.waitForAnnouncement())
        try "unlocked\n".write(toFile: path, atomically: true, encoding: .utf8)
        finished.wait()
        #expect(result.value == true)
        // A listener whose launch never waits is ended by cancel.
        let idle = try ProtectedDataWaitListener(path: directory.file("idle.fifo"))
        idle.cancel()
        #expect(!idle.waitForAnnouncement())
    }
}

final class Session: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let token: String
    let expiry: Date

    init(token: String, expiry: Date) {
        self.token = token
        self.expiry = expiry
    }

    required init?(coder: NSCoder) {
        guard let token = coder.decodeObject(of: NSString.self, forKey: "token") as String?,
            let expiry = coder.decodeObject(of: NSDate.self, forKey: "expiry") as Date?
        else { return nil }
        self.token = token
        self.expiry = expiry
    }

    func encode(with coder: NSCoder) {
        coder.encode(token as NSString, forKey: "token")
        coder.encode(expiry as NSDate, forKey: "expiry")
    }
}

@Suite struct ArchiveTests {
    @Test("an NSSecureCoding object round-trips through a keyed archive")
    func roundTrip() throws {
        let data = try Archive.data(of: Session(token: "abc", expiry: Date(timeIntervalSince1970: 1_000)))
        #expect(data.starts(with: Data("bplist00".utf8)))
        let session = try Archive.object(Session.self, from: data)
        #expect(session.token == "abc")
        #expect(session.expiry == Date(timeIntervalSince1970: 1_000))
    }

    @Test("a corrupt archive throws instead of crashing")
    func corrupt() {
        #expect(throws: (any Error).self) { try Archive.object(Session.self, from: Data("not an archive".utf8)) }
    }
}

/// A value shared with a thread.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
}

/// The lock-state file's watch, which the protected-data wait blocks on.
@Suite struct FileChangeWatchTests {
    @Test("the unlock's atomic rename of the lock-state file is an event; no change is none")
    func renameIsAnEvent() throws {
        let directory = try TemporaryDirectory("watch")
        let path = directory.file("lockstate")
        try "locked\n".write(toFile: path, atomically: true, encoding: .utf8)
        let watch = try #require(FileChangeWatch(file: path))
        defer { watch.close() }
        #expect(!watch.wait(milliseconds: 0))
        try "unlocked\n".write(toFile: path, atomically: true, encoding: .utf8)
        // The event is queued before the wait starts: it returns at once, with no clock involved.
        #expect(watch.wait(milliseconds: 600_000))
        #expect(!watch.wait(milliseconds: 0))
    }
}
