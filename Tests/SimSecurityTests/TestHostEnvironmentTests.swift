import Foundation
import SimRuntime
import TestSupport
import Testing
@testable import SimSecurity

@Suite("SIMSECURITY_* variables set up a test host's keychain with no code")
struct TestHostEnvironmentTests {
    static let entitlements = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>application-identifier</key><string>PROBE00001.com.example.probe</string>
        <key>keychain-access-groups</key><array><string>PROBE00001.com.example.shared</string></array>
        </dict></plist>
        """

    @Test("no variables: the in-memory store, the test host, unlocked, the current runtime")
    func defaults() throws {
        let configuration = try TestHostEnvironment.configuration([:])
        #expect(configuration.storage == .inMemory)
        #expect(configuration.identity == .testHost)
        #expect(configuration.lockState.current == .unlocked)
        #expect(configuration.runtime == .current)
    }

    @Test("each variable chooses its part")
    func everyVariable() throws {
        let tmp = try TemporaryDirectory()
        let plist = tmp.file("Probe.entitlements")
        try Self.entitlements.write(toFile: plist, atomically: true, encoding: .utf8)
        let configuration = try TestHostEnvironment.configuration([
            "SIMSECURITY_ENTITLEMENTS": plist, "SIMSECURITY_KEYCHAIN": tmp.file("k.db"),
            "SIMSECURITY_LOCK_STATE": "beforeFirstUnlock", "SIMSECURITY_RUNTIME": "iOS 12.4",
        ])
        #expect(configuration.identity.accessGroups == ["PROBE00001.com.example.shared", "PROBE00001.com.example.probe"])
        #expect(configuration.storage == .file(tmp.file("k.db")))
        #expect(configuration.lockState.current == .beforeFirstUnlock)
        #expect(configuration.runtime == RuntimeVersion(major: 12, minor: 4))
    }

    @Test(
        "an unusable value names its variable",
        arguments: [
            ("SIMSECURITY_LOCK_STATE", "asleep"), ("SIMSECURITY_RUNTIME", "Android 14"),
            ("SIMSECURITY_ENTITLEMENTS", "/nonexistent/App.entitlements"),
        ])
    func unusable(variable: String, value: String) {
        #expect(throws: TestHostEnvironment.Problem.self) { try TestHostEnvironment.configuration([variable: value]) }
        do {
            _ = try TestHostEnvironment.configuration([variable: value])
        } catch {
            #expect(error.variable == variable)
        }
    }

    @Test("a process with only the variables uses their store, identity, lock state and runtime")
    func process() throws {
        let tmp = try TemporaryDirectory()
        let plist = tmp.file("Probe.entitlements")
        try Self.entitlements.write(toFile: plist, atomically: true, encoding: .utf8)
        let path = tmp.file("keychain.db")
        let run = try runTool(
            "keychain-probe", [],
            environment: [
                "SIMSECURITY_ENTITLEMENTS": plist, "SIMSECURITY_KEYCHAIN": path, "SIMSECURITY_LOCK_STATE": "locked",
                "SIMSECURITY_RUNTIME": "iOS 12.4",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.split(separator: "\n").prefix(4) == [
                "add-always 0",
                "add-when-unlocked \(errSecInteractionNotAllowed)",  // locked
                "read 0 agrp=PROBE00001.com.example.shared",  // the entitlements' first group
                "read-foreign-group \(errSecItemNotFound)",  // iOS 12's answer (row 9)
            ])
        let stored = try Keychain(.init(storage: .file(path))).dump()
        #expect(stored.map(\.account) == ["always"])
    }

    @Test("a variable that cannot be used ends the process with one line naming it")
    func badVariable() throws {
        let run = try runTool("keychain-probe", [], environment: ["SIMSECURITY_LOCK_STATE": "asleep"])
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("SimSecurity: SIMSECURITY_LOCK_STATE:"))
        #expect(run.stdout.isEmpty)
    }

    /// keychain-probe copied under a test process's name, `Host.xctest`, in a folder of its own.
    func testProcess() throws -> (folder: TemporaryDirectory, executable: String) {
        let folder = try TemporaryDirectory()
        let executable = folder.file("Host.xctest")
        try Self.copyExecutable(BuiltProducts.executable("keychain-probe"), to: executable)
        return (folder, executable)
    }

    /// Copies an executable with `cp` in a child process: this process never holds a descriptor open
    /// for writing the copy, so no process another test forks at that moment can inherit one and make
    /// running the copy fail with ETXTBSY ("Text file busy"). The copy is whole once `cp` has exited.
    static func copyExecutable(_ source: String, to destination: String) throws {
        let copy = try ProcessRun.run("/bin/cp", [source, destination], environment: ProcessInfo.processInfo.environment)
        guard copy.status == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func bundleLine(_ executable: String, _ environment: [String: String]) throws -> String {
        var base = ProcessInfo.processInfo.environment
        for key in ["SIMSECURITY_BUNDLE_ID", "SIMSECURITY_ENTITLEMENTS"] { base[key] = nil }
        let run = try ProcessRun.run(executable, [], environment: base.merging(environment) { _, new in new })
        #expect(run.status == 0, "\(run.stderr)")
        return String(run.stdout.split(separator: "\n").last ?? "")
    }

    @Test("a test process's Bundle.main names the host, as in an iOS test host; the file goes when the variables do")
    func bundleMain() throws {
        let (folder, executable) = try testProcess()
        #expect(try bundleLine(executable, ["SIMSECURITY_BUNDLE_ID": "com.example.host"]) == "bundle-id com.example.host")
        let plist = folder.file("Probe.entitlements")
        try Self.entitlements.write(toFile: plist, atomically: true, encoding: .utf8)
        #expect(try bundleLine(executable, ["SIMSECURITY_ENTITLEMENTS": plist]) == "bundle-id com.example.probe")
        #expect(FileManager.default.fileExists(atPath: folder.file("Info.plist")))
        #expect(try bundleLine(executable, [:]) == "bundle-id -")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Info.plist")))
        // Not a test process: nothing is written beside it.
        let tool = folder.file("tool")
        try Self.copyExecutable(executable, to: tool)
        #expect(try bundleLine(tool, ["SIMSECURITY_BUNDLE_ID": "com.example.host"]) == "bundle-id -")
        #expect(!FileManager.default.fileExists(atPath: folder.file("Info.plist")))
    }

    @Test("a person's own Info.plist beside the test executable is left as it is")
    func ownInfoPlist() throws {
        let (folder, executable) = try testProcess()
        let own =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.example.mine</string></dict></plist>"#
        try own.write(toFile: folder.file("Info.plist"), atomically: true, encoding: .utf8)
        #expect(try bundleLine(executable, ["SIMSECURITY_BUNDLE_ID": "com.example.host"]) == "bundle-id com.example.mine")
        #expect(try bundleLine(executable, [:]) == "bundle-id com.example.mine")
        #expect(try String(contentsOfFile: folder.file("Info.plist"), encoding: .utf8) == own)
    }

    @Test("a launched app, or unusable variables, write nothing")
    func notApplicable() throws {
        let (folder, executable) = try testProcess()
        let launched = TestHostBundle.prepare(
            environment: ["SIMSECURITY_BUNDLE_ID": "com.example.host", "UPGRADE_RUNNER_LAUNCH_CONTEXT": "{}"],
            executable: executable)
        #expect(launched == .notApplicable)
        let unreadable = TestHostBundle.prepare(
            environment: ["SIMSECURITY_ENTITLEMENTS": folder.file("missing.entitlements")], executable: executable)
        #expect(unreadable == .notApplicable)
        #expect(!FileManager.default.fileExists(atPath: folder.file("Info.plist")))
    }
}
