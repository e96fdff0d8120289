import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

@Suite struct DeviceStateTests {
    private func lockFile(_ session: DeviceSession) throws -> String {
        try String(contentsOfFile: session.layout.lockStatePath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("boot, lock, unlock and shutdown move the lock state, in device.json and the lock-state file")
    func transitions() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        #expect(throws: DeviceError.shutDown(udid: session.udid)) { try session.unlock() }
        try session.boot(lockState: .beforeFirstUnlock)
        #expect(try lockFile(session) == "beforeFirstUnlock")
        try session.lock()
        #expect(session.record.lockState == .beforeFirstUnlock, "never unlocked since boot: stays before first unlock")
        try session.unlock()
        #expect(try lockFile(session) == "unlocked")
        try session.lock()
        #expect(try lockFile(session) == "locked")
        #expect(try Device(layout: session.layout).record.lockState == .locked)
        try session.shutdown()
        #expect(try lockFile(session) == "beforeFirstUnlock")
        try session.boot()
        #expect(try lockFile(session) == "unlocked")
        #expect(try Device(layout: session.layout).record.state == .booted)
    }

    @Test("the clock does not run; advance-clock moves it and launches see it")
    func clock() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        let start = session.record.clock
        try session.advanceClock(by: 31 * 86_400)
        #expect(session.record.clock == start.addingTimeInterval(31 * 86_400))
        #expect(try Device(layout: session.layout).record.clock == session.record.clock)
        let target = Date(timeIntervalSince1970: 1_800_000_000)
        try session.setClock(target)
        #expect(try Device(layout: session.layout).record.clock == target)
    }

    @Test("an OS update moves the runtime up, keeps the apps and data, restarts before first unlock; never down")
    func osUpdate() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        #expect(try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"])).exitedCleanly)
        try session.updateOS(to: RuntimeVersion(major: 18))
        #expect(session.record.runtime == RuntimeVersion(major: 18))
        #expect(try Device(layout: session.layout).record.runtime == RuntimeVersion(major: 18))
        #expect(session.record.state == .booted && session.record.lockState == .beforeFirstUnlock)
        try session.unlock()
        #expect(try session.launch("com.example.tiny").exitedCleanly)
        let status = try String(
            contentsOfFile: session.dataContainer("com.example.tiny")!.path + "/Documents/tiny-status.json", encoding: .utf8)
        #expect(status.contains("\"found\":true"), "the app's keychain item stayed")
        #expect(status.contains("\"runtime\":\"iOS 18.0\""), "the launch answers as the new runtime")
        #expect(
            throws: DeviceError.olderRuntime(udid: session.udid, current: RuntimeVersion(major: 18), requested: .current)
        ) { try session.updateOS(to: .current) }
        #expect(session.record.runtime == RuntimeVersion(major: 18))
    }

    @Test("a device.json with a key given twice is refused naming the key (#37)")
    func duplicatedKey() throws {
        let fixture = try Fixture()
        let path = fixture.device.layout.recordPath
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "{", with: "{\"name\": \"Other\",", options: [], range: text.range(of: "{"))
            .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: DeviceError.malformedFile(path, reason: DuplicateKeys.reason("name"))) {
            try Device(layout: fixture.device.layout)
        }
    }

    @Test("one run per device: a second holder is told who has it, and can take it once released")
    func deviceLock() throws {
        let fixture = try Fixture()
        let first = try fixture.device.acquire()
        #expect(throws: DeviceError.inUse(udid: fixture.device.udid, pid: getpid())) { try fixture.device.acquire() }
        #expect("\(DeviceError.inUse(udid: "U", pid: 42))" == "device U is in use by pid 42")
        first.release()
        let second = try fixture.device.acquire()
        second.release()
    }

    @Test("every new device's keychain is the same empty store, one file, which a launched app writes to")
    func newKeychains() throws {
        let fixture = try Fixture("state")
        let other = try fixture.set.create(name: "Other")
        let files = { (device: Device) in try FileManager.default.contentsOfDirectory(atPath: device.layout.keychainDirectory) }
        #expect(try files(fixture.device) == ["keychain-2-debug.db"] && files(other) == ["keychain-2-debug.db"])
        #expect(
            FileManager.default.contents(atPath: other.layout.keychainPath)
                == FileManager.default.contents(atPath: fixture.device.layout.keychainPath))
        let session = try other.acquire()
        defer { session.release() }
        try session.install(try fixture.build("v1"))
        try session.boot()
        #expect(try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"])).exitedCleanly)
        #expect(try session.keychainItems().map(\.account) == ["token"])
    }
}
