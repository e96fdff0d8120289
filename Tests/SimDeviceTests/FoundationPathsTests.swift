import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// Foundation's own calls in a launched app (FoundationApp, written for iOS with no harness call)
/// resolve into its containers, and UserDefaults persists there as on iOS: in a static app build
/// (linked with the wraps) and in the same code linked dynamically (FoundationAppDynamic).
@Suite struct FoundationPathsTests {
    static let bundleID = "com.example.foundation"
    static let group = "group.com.example.foundation"

    /// A booted device with FoundationApp installed, entitled to ``group``.
    private func booted(_ fixture: Fixture, _ executable: String) throws -> DeviceSession {
        let session = try fixture.device.acquire()
        try BuildFixture.write(
            in: fixture.builds, id: "f1", bundleID: Self.bundleID, marketingVersion: "3.1",
            executable: executable, groups: [Self.group])
        try session.install(try fixture.catalog.build("f1"))
        try session.boot(lockState: .unlocked)
        return session
    }

    private func plist(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    private func write(_ session: DeviceSession, crash: Bool) throws -> LaunchResult {
        try session.launch(
            Self.bundleID,
            LaunchOptions(arguments: ["-FoundationMode", "write"] + (crash ? ["-FoundationCrash", "YES"] : [])))
    }

    @Test(
        "UserDefaults.standard and an app group's suite persist without synchronize(), through a clean exit and a crash",
        arguments: ["FoundationApp", "FoundationAppDynamic"], [false, true])
    func defaultsPersist(executable: String, crash: Bool) throws {
        let fixture = try Fixture()
        let session = try booted(fixture, executable)
        let result = try write(session, crash: crash)
        #expect(result.termination == (crash ? .signaled(SIGKILL) : .exited(0)))
        let data = try #require(session.device.dataContainer(Self.bundleID)).path
        let stored = try plist(data + "/Library/Preferences/\(Self.bundleID).plist")
        #expect(stored["string"] as? String == "text")
        #expect(stored["integer"] as? Int == 7)
        #expect(stored["bool"] as? Bool == true)
        #expect(stored["double"] as? Double == 2.5)
        #expect(stored["data"] as? Data == Data([1, 2, 3]))
        #expect(stored["array"] as? [String] == ["a", "b"])
        #expect((stored["dictionary"] as? [String: Any])?["k"] as? Int == 1)
        #expect(stored["date"] as? Date == Date(timeIntervalSince1970: 86_400))
        #expect(stored["setValue"] as? String == "kvc")
        #expect(stored["removed"] == nil)
        #expect(stored["FoundationMode"] == nil, "the argument domain is not stored")
        let group = try #require(session.device.groupContainer(Self.group)).path
        #expect(try plist(group + "/Library/Preferences/\(Self.group).plist")["groupValue"] as? String == "shared")
        #expect(try plist(data + "/Library/Preferences/com.example.plain-suite.plist")["suiteValue"] as? Int == 1)
        // Nothing where corelibs would have put it.
        #expect(!FileManager.default.fileExists(atPath: data + "/.config"))
        #expect(!FileManager.default.fileExists(atPath: data + "/Library/Preferences/Library"))
        // Every write went through the seam, in order: counted, so a crash point and a fault point.
        let writes = result.mutations.filter { $0.operation == .preferencesWrite }
        #expect(writes.count == 13)
    }

    @Test("a UserDefaults write is a fault point (dropped) and a crash point (the app ends right after it)")
    func faultAndCrashPoints() throws {
        let fixture = try Fixture()
        let session = try booted(fixture, "FoundationApp")
        let dropped = try session.launch(
            Self.bundleID,
            LaunchOptions(
                arguments: ["-FoundationMode", "write"],
                faultPlan: FaultPlan(faults: [Fault(.preferencesWrite, call: 1, .dropWrite)])))
        #expect(dropped.exitedCleanly)
        let data = try #require(session.device.dataContainer(Self.bundleID)).path
        var stored = try plist(data + "/Library/Preferences/\(Self.bundleID).plist")
        #expect(stored["string"] == nil)
        #expect(stored["integer"] as? Int == 7)

        try FileManager.default.removeItem(atPath: data + "/Library/Preferences/\(Self.bundleID).plist")
        let crashed = try session.launch(
            Self.bundleID,
            LaunchOptions(arguments: ["-FoundationMode", "write"], faultPlan: FaultPlan(crashAfterMutation: 2)))
        #expect(crashed.endedAtCrashPoint)
        stored = try plist(data + "/Library/Preferences/\(Self.bundleID).plist")
        #expect(stored.keys.sorted() == ["integer", "string"])
    }

    @Test(
        "paths, the bundle id, the group container and the stored values, as Foundation answers them in a launch",
        arguments: ["FoundationApp", "FoundationAppDynamic"])
    func paths(executable: String) throws {
        let fixture = try Fixture()
        let session = try booted(fixture, executable)
        #expect(try write(session, crash: true).termination == .signaled(SIGKILL))
        #expect(try session.launch(Self.bundleID, LaunchOptions(arguments: ["-FoundationMode", "report"])).exitedCleanly)
        let data = try #require(session.device.dataContainer(Self.bundleID)).path
        let group = try #require(session.device.groupContainer(Self.group)).path
        let report = try plist(data + "/Documents/report.plist")
        #expect(report["home"] as? String == data)
        #expect(report["temporary"] as? String == data + "/tmp/")
        #expect(report["documents"] as? String == data + "/Documents")
        #expect(report["applicationSupport"] as? String == data + "/Library/Application Support")
        #expect(report["caches"] as? String == data + "/Library/Caches")
        // corelibs has no Library directory: the README gives the one-line replacement.
        #expect(report["library"] as? String == "none")
        #expect(report["bundleIdentifier"] as? String == Self.bundleID)
        #expect(report["version"] as? String == "3.1")
        #expect(report["group"] as? String == group)
        #expect(report["otherGroup"] as? String == "none")
        #expect(report["string"] as? String == "text")
        #expect(report["integer"] as? Int == 7)
        #expect(report["bool"] as? Bool == true)
        #expect(report["setValue"] as? String == "kvc")
        #expect(report["groupValue"] as? String == "shared")
        #expect(
            report["keys"] as? [String]
                == ["array", "bool", "data", "date", "dictionary", "double", "integer", "setValue", "string"])
        #expect(report["synchronize"] as? Bool == true)
    }

    @Test(
        "iOS's errors where corelibs differs: 4864 for an archive of the wrong class (corelibs traps) and for bytes that are no archive (3840); 261 for a file the encoding cannot read (259)",
        arguments: ["FoundationApp", "FoundationAppDynamic"])
    func unarchiving(product: String) throws {
        let fixture = try Fixture()
        let session = try booted(fixture, product)
        let result = try session.launch(Self.bundleID, LaunchOptions(arguments: ["-FoundationMode", "unarchive"]))
        #expect(result.exitedCleanly, "\(result.termination)")
        let data = try #require(session.device.dataContainer(Self.bundleID)).path
        let report = try plist(data + "/Documents/unarchive.plist")
        #expect(report["wrongClass"] as? String == "NSCocoaErrorDomain 4864")
        #expect(report["notArchive"] as? String == "NSCocoaErrorDomain 4864")
        #expect(report["rightClass"] as? Int == 1)
        #expect(report["wrongClasses"] as? String == "NSCocoaErrorDomain 4864")
        // A class name mapped with NSKeyedUnarchiver.setClass(_:forClassName:) resolves as corelibs resolves it.
        #expect(report["renamedClass"] as? Int == 2)
        // NSFileReadInapplicableStringEncodingError, where corelibs answers 259; the right encoding reads.
        #expect(report["nonUTF8Path"] as? String == "NSCocoaErrorDomain 261")
        #expect(report["nonUTF8URL"] as? String == "NSCocoaErrorDomain 261")
        #expect(report["latin1"] as? String == "read 4")
    }
}
