import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport
import SimSupervision

@Suite struct PlatformTests {
    @Test("the platform gives an app its containers, group suites, clock and arguments from the launch context")
    func fromContext() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try fixture.build("v1", groups: ["group.com.example.tiny"]))
        try session.boot()
        let data = try #require(session.device.dataContainer("com.example.tiny")).path
        let group = try #require(session.device.groupContainer("group.com.example.tiny")).path
        let context = LaunchContext(
            udid: session.udid, deviceDirectory: session.layout.directory, bundleID: "com.example.tiny",
            identity: try session.device.installedApp("com.example.tiny").record.identity, runtime: .current,
            keychainPath: session.layout.keychainPath, dataContainer: data,
            appGroupContainers: ["group.com.example.tiny": group], lockStatePath: session.layout.lockStatePath,
            clock: session.record.clock, arguments: ["-UITestSeedLegacyKeychain", "-shared", "yes"], faultPlan: .none,
            mutationLogPath: nil)
        let platform = Platform(context: context, seam: Seam())
        #expect(platform.containers.documents.path == data + "/Documents")
        #expect(platform.containers.applicationSupport.path == data + "/Library/Application Support")
        #expect(platform.containers.tmp.path == data + "/tmp")
        #expect(platform.containers.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.tiny")?.path == group)
        #expect(platform.containers.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.other") == nil)
        #expect(platform.now == fixture.device.record.clock)
        #expect(platform.hasArgument("-UITestSeedLegacyKeychain"))
        #expect(platform.protectedData.isAvailable)

        let suite = try #require(platform.preferences(suiteName: "group.com.example.tiny"))
        #expect(suite.set("v", forKey: "k"))
        #expect(FileManager.default.fileExists(atPath: group + "/Library/Preferences/group.com.example.tiny.plist"))
        #expect(suite.bool(forKey: "shared"), "the argument domain applies to suites too")
        #expect(platform.preferences(suiteName: "group.com.example.other") == nil)
        #expect(platform.preferences.plistPath == data + "/Library/Preferences/com.example.tiny.plist")

        try platform.files.write(Data("g".utf8), to: URL(fileURLWithPath: group + "/shared.bin"), protection: .complete)
        try session.lock()
        #expect(!platform.protectedData.isAvailable, "the lock state is read from the device on every check")
        #expect(throws: FileAccessError.self) { try platform.files.read(URL(fileURLWithPath: group + "/shared.bin")) }
    }

    @Test("outside a launched process there is no platform")
    func notLaunched() {
        #expect(throws: PlatformError.notLaunched) { try Platform.launched() }
    }

    @Test(
        "a launch that is not a simulated device's is bad usage (2); one whose file supervisor the kernel refuses could not run (3), and says why"
    )
    func refusalExitCodes() {
        #expect(PlatformError.notLaunched.exitCode == 2)
        let refused = PlatformError.fileSupervisionRefused("seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER): Invalid argument")
        #expect(refused.exitCode == 3)
        #expect(
            refused.description
                == "the file supervisor could not start (seccomp(SECCOMP_SET_MODE_FILTER, NEW_LISTENER): Invalid argument); the launch would have no file crash points"
        )
        // Outside a launch the supervisor never starts: this test process is not supervised.
        #expect(!FileSupervision.isActive)
    }
}
