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
}
