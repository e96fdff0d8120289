import Foundation
import SimRuntime
import Testing
import TestSupport
import SimSupervision

/// Data protection on the app's own file calls: a launched `file-mutator` creates files with
/// Foundation in a data container whose folder carries a class (as an install gives it from the
/// build's `com.apple.developer.default-data-protection`), then reads them in each lock state.
@Suite struct DataProtectionTests {
    typealias Device = FileSupervisionTests.Device

    func setLockState(_ device: Device, _ state: LockState) throws {
        try (state.rawValue + "\n").write(toFile: device.folder.file("lockstate"), atomically: true, encoding: .utf8)
    }

    func classify(_ device: Device, _ protection: FileProtection?) throws {
        guard let protection else { return }
        try #require(FileProtection.set(protection, atPath: device.container) == 0)
    }

    @Test(
        "a file the app creates takes its folder's class, and a launch reads it only in the lock states the class allows",
        arguments: [FileProtection?.none] + FileProtection.allCases.map(Optional.some), LockState.allCases)
    func readsFollowTheClass(protection: FileProtection?, state: LockState) throws {
        let device = try Device()
        try classify(device, protection)
        try setLockState(device, .unlocked)
        let (write, _) = try device.launch([
            "mkdir:Documents", "write:Documents/mail.db=v1", "atomic:Documents/settings.plist=s1",
        ])
        #expect(write.stdout == "ok\nok\nok\n", "\(write.stderr)")
        for file in ["Documents", "Documents/mail.db", "Documents/settings.plist"] {
            #expect(FileProtection.stored(atPath: device.container + "/" + file) == protection, "\(file)")
        }

        try setLockState(device, state)
        try FileManager.default.removeItem(atPath: device.log)
        let (read, log) = try device.launch(["read:Documents/mail.db", "read:Documents/settings.plist"])
        let readable = (protection ?? .default).canRead(state)
        // iOS answers a read of an unavailable class NSFileReadNoPermissionError (257).
        let expected = readable ? "ok v1\nok s1\n" : "error -257\nerror -257\n"
        #expect(read.stdout == expected, "\(read.stderr)")
        #expect(log.isEmpty, "a read is no mutation and no seam call")
    }

    @Test("the default class: unreadable before first unlock, readable while locked after it")
    func defaultClass() throws {
        let device = try Device()
        try setLockState(device, .unlocked)
        _ = try device.launch(["write:mail.db=v1"])
        try setLockState(device, .beforeFirstUnlock)
        #expect(try device.launch(["read:mail.db"]).0.stdout == "error -257\n")
        try setLockState(device, .locked)
        #expect(try device.launch(["read:mail.db"]).0.stdout == "ok v1\n")
    }

    @Test("while locked, a complete-class folder refuses a new file; the refusal is a failed call, not a mutation")
    func completeRefusesCreation() throws {
        let device = try Device()
        try classify(device, .complete)
        try setLockState(device, .locked)
        let (run, log) = try device.launch(["write:mail.db=v1"])
        // NSFileWriteNoPermissionError (513), as iOS answers it.
        #expect(run.stdout == "error -513\n", "\(run.stderr)")
        #expect(device.contents("mail.db") == nil)
        #expect(log.map(\.operation) == [.fsOpen])
        #expect(log.first?.status == EPERM && log.first?.mutation == nil && log.first?.injected == nil)
    }

    @Test("while locked, complete-unless-open creates a new file but refuses to open an existing one")
    func completeUnlessOpen() throws {
        let device = try Device()
        try classify(device, .completeUnlessOpen)
        try setLockState(device, .locked)
        let (run, _) = try device.launch(["write:download.part=a", "write:download.part=b", "read:download.part"])
        #expect(run.stdout == "ok\nerror -513\nerror -257\n", "\(run.stderr)")
        #expect(FileProtection.stored(atPath: device.container + "/download.part") == .completeUnlessOpen)
        try setLockState(device, .unlocked)
        #expect(try device.launch(["read:download.part"]).0.stdout == "ok a\n")
    }

    @Test("a renamed file keeps its class")
    func renameKeepsClass() throws {
        let device = try Device()
        try FileManager.default.createDirectory(atPath: device.container + "/Secure", withIntermediateDirectories: true)
        try #require(FileProtection.set(.complete, atPath: device.container + "/Secure") == 0)
        try setLockState(device, .unlocked)
        _ = try device.launch(["write:Secure/token=t", "move:Secure/token=moved"])
        #expect(FileProtection.stored(atPath: device.container + "/moved") == .complete)
        try setLockState(device, .locked)
        #expect(try device.launch(["read:moved"]).0.stdout == "error -257\n")
    }
}
