import Foundation
import SimDevice
import SimRuntime
import Testing
import SimSupervision

@Suite("Cloning a prepared device")
struct CloneTests {
    @Test("a clone has its own UDID and name, the source's record, apps, containers and keychain, and they then diverge")
    func cloneDiverges() throws {
        let fixture = try Fixture("clone")
        let session = try fixture.bootedWithTinyApp()
        let seeded = try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"]))
        #expect(seeded.exitedCleanly)
        try session.lock()
        session.release()

        let copy = try fixture.set.clone(fixture.device.refreshed(), name: "Copy")
        #expect(copy.udid != fixture.device.udid && copy.record.name == "Copy")
        #expect(
            copy.record.lockState == .locked && copy.record.state == .booted && copy.record.clock == fixture.device.record.clock)
        #expect(try copy.keychainItems().map(\.account) == ["token"])
        #expect(try copy.digestKey() == fixture.device.digestKey())
        #expect(copy.installedApps().map(\.bundleID) == ["com.example.tiny"])
        #expect(copy.dataContainer("com.example.tiny") != nil)

        // The copy launches on its own and changes only itself.
        let copySession = try copy.acquire()
        try copySession.unlock()
        try copySession.uninstall("com.example.tiny")
        #expect(copySession.device.installedApps().isEmpty)
        #expect(fixture.device.installedApps().map(\.bundleID) == ["com.example.tiny"])
        #expect(try fixture.set.device(fixture.device.udid).record.lockState == .locked)
    }

    @Test("a clone keeps every file's and folder's data protection class")
    func cloneKeepsClasses() throws {
        let fixture = try Fixture("clone")
        let session = try fixture.bootedWithTinyApp()
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        try Data("t".utf8).write(to: URL(fileURLWithPath: data.path + "/Documents/token"))
        try #require(FileProtection.set(.complete, atPath: data.path + "/Documents/token") == 0)
        try #require(FileProtection.set(.none, atPath: data.path + "/Library") == 0)
        session.release()

        let copy = try fixture.set.clone(fixture.device.refreshed(), name: "Copy")
        let copied = try #require(copy.dataContainer("com.example.tiny"))
        #expect(FileProtection.stored(atPath: copied.path + "/Documents/token") == .complete)
        #expect(FileProtection.stored(atPath: copied.path + "/Library") == FileProtection.none)
        #expect(FileProtection.stored(atPath: copied.path + "/Documents") == nil)
    }

    @Test("cloning onto an existing UDID is refused and leaves both devices as they were")
    func cloneOntoExisting() throws {
        let fixture = try Fixture("clone")
        let other = try fixture.set.create(name: "Other")
        #expect(throws: DeviceError.self) { try fixture.set.clone(fixture.device, name: "X", udid: other.udid) }
        #expect(try fixture.set.device(other.udid).record.name == "Other")
        #expect(!FileManager.default.fileExists(atPath: fixture.set.root + "/.creating-" + other.udid))
    }
}

extension Device {
    /// The device as it is on disk now.
    func refreshed() throws -> Device { try Device(layout: layout) }
}
