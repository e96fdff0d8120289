import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport
import SimSupervision

/// `com.apple.developer.default-data-protection`: the class a new data container takes at install,
/// and what a launched app that creates files with Foundation then reads in each lock state.
@Suite struct DataProtectionInstallTests {
    func build(_ fixture: Fixture, _ id: String, buildNumber: String = "100", dataProtection: String?) throws -> Build {
        try BuildFixture.write(
            in: fixture.builds, id: id, buildNumber: buildNumber, executable: "file-mutator", dataProtection: dataProtection)
        return try fixture.catalog.build(id)
    }

    @Test("an install creates the data container in the entitlement's class; an upgrade in place keeps it")
    func containerClass() throws {
        let fixture = try Fixture("data-protection")
        let session = try fixture.device.acquire()
        try session.install(try build(fixture, "v1", dataProtection: "NSFileProtectionComplete"))
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        for folder in [
            "", "/Library", "/Documents", "/Library/Preferences", "/Library/Caches", "/Library/Application Support", "/tmp",
        ] {
            #expect(FileProtection.stored(atPath: data.path + folder) == .complete, "\(folder)")
        }
        // Only a container's creation reads the entitlement.
        try session.install(try build(fixture, "v2", buildNumber: "200", dataProtection: nil))
        let moved = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(moved.path != data.path, "an update moves the container")
        #expect(FileProtection.stored(atPath: moved.path + "/Documents") == .complete, "and its class goes with it")
        try session.uninstall("com.example.tiny")
        try session.install(try build(fixture, "v2", buildNumber: "200", dataProtection: nil))
        let fresh = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(FileProtection.stored(atPath: fresh.path + "/Documents") == nil)
    }

    @Test("a value that is no data protection class is bad input naming the file and the key")
    func badValue() throws {
        let fixture = try Fixture("data-protection")
        let thrown = #expect(throws: DeviceError.self) {
            _ = try build(fixture, "v1", dataProtection: "NSFileProtectionSometimes")
        }
        let message = thrown.map { "\($0)" } ?? ""
        #expect(message.contains("v1/App.entitlements"), "\(message)")
        #expect(message.contains("com.apple.developer.default-data-protection is \"NSFileProtectionSometimes\""), "\(message)")
        #expect(thrown?.isEnvironmentFailure == false, "bad input: exit 2")
    }

    @Test(
        "an app of each class creates its files in it, and a launched read answers as iOS in each lock state",
        arguments: ["NSFileProtectionComplete", "NSFileProtectionCompleteUntilFirstUserAuthentication", "NSFileProtectionNone"])
    func launchedReads(value: String) throws {
        let fixture = try Fixture("data-protection")
        let session = try fixture.device.acquire()
        try session.install(try build(fixture, "v1", dataProtection: value))
        try session.boot(lockState: .unlocked)
        let log = fixture.directory.file("app.log")
        func run(_ steps: [String]) throws -> String {
            let result = try session.launch("com.example.tiny", LaunchOptions(arguments: steps, logPath: log))
            #expect(result.exitedCleanly)
            return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        #expect(try run(["write:Library/Application Support/account.archive=a1"]) == "ok\n")
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        let protection = try #require(FileProtection(rawValue: value))
        #expect(FileProtection.of(path: data.path + "/Library/Application Support/account.archive") == protection)
        try session.lock()
        let locked = try run(["read:Library/Application Support/account.archive"])
        #expect(locked == (protection.canRead(.locked) ? "ok a1\n" : "error -257\n"))
        try session.shutdown()
        try session.boot(lockState: .beforeFirstUnlock)
        let beforeFirstUnlock = try run(["read:Library/Application Support/account.archive"])
        #expect(beforeFirstUnlock == (protection.canRead(.beforeFirstUnlock) ? "ok a1\n" : "error -257\n"))
    }
}
