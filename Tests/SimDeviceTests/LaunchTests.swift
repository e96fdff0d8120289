import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

@Suite struct LaunchTests {
    private func status(_ session: DeviceSession) throws -> String {
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        return try String(contentsOfFile: data.path + "/Documents/tiny-status.json", encoding: .utf8)
    }

    @Test("a launch runs the installed executable with the device's context and writes into the data container")
    func launchReadsKeychain() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let first = try session.launch("com.example.tiny")
        #expect(first.exitedCleanly)
        #expect(first.buildID == "v1")
        #expect(try status(session).contains("\"found\":false"))
        #expect(try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"])).exitedCleanly)
        #expect(try session.launch("com.example.tiny").exitedCleanly)
        #expect(try status(session).contains("\"found\":true"))
        #expect(try status(session).contains("\"runtime\":\"iOS 17.5\""))
        let items = try session.device.keychainItems()
        #expect(items.map(\.accessGroup) == ["TEAM123456.com.example.tiny"], "identity from the install record")
    }

    @Test("a launch returns the status file the app wrote, and never one an earlier launch left")
    func launchReturnsStatusFile() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let automated = try session.launch(
            "com.example.tiny", LaunchOptions(arguments: [LaunchMode.caseIDArgument, "case-7"]))
        let data = try #require(automated.statusFile)
        #expect(String(decoding: data, as: UTF8.self).contains("\"caseID\":\"case-7\""))
        // A plain launch writes no status file: the one the automated launch left is not returned.
        let plain = try session.launch("com.example.tiny")
        #expect(plain.exitedCleanly && plain.statusFile == nil)
        let container = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(!FileManager.default.fileExists(atPath: container.path + "/" + LaunchStatus.relativePath))
    }

    @Test("stdout and stderr go to the log; HOME and TMPDIR are the data container")
    func logCapture() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let log = fixture.directory.file("logs/env.log")
        let result = try session.launch(
            "com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "env", "extra"], logPath: log))
        #expect(result.exitedCleanly)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(text.contains("HOME=\(data.path)\n"))
        #expect(text.contains("TMPDIR=\(data.path)/tmp/\n"))
        #expect(text.contains("arguments=-TinyMode env extra\n"))
        #expect(text.contains("stderr line\n"))
    }

    @Test(
        "what an app starts ends with its launch, even in a session of its own, and nothing it starts writes outside the device")
    func processTreeEndsWithLaunch() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let log = fixture.directory.file("logs/escape.log")
        let outside = fixture.directory.file("outside.txt")
        let result = try session.launch(
            "com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "escape", "-TinyOutside", outside], logPath: log))
        #expect(result.exitedCleanly)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("escaped pid ") }, "\(text)")
        let pid = try #require(pid_t(line.dropFirst("escaped pid ".count)), "\(text)")
        // Whatever the outcome, the daemon does not outlive the test.
        defer { kill(pid, SIGKILL) }
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "the double-forked daemon \(pid) outlived its launch")
        #expect(!FileManager.default.fileExists(atPath: outside), "the app's child wrote outside the device")
        #expect(!FileManager.default.fileExists(atPath: outside + ".app"), "the app wrote outside the device")
        #expect(text.contains("app wrote outside: false"), "\(text)")
    }

    @Test("-Key value launch arguments reach the app's preferences and shadow the stored value")
    func argumentDomain() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        #expect(try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "prefs"])).exitedCleanly)
        #expect(try status(session).contains("\"counter\":1"))
        #expect(
            try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "prefs", "-TinyCounter", "41"]))
                .exitedCleanly)
        #expect(try status(session).contains("\"counter\":41"), "the argument shadows the stored 42")
        let plist =
            try #require(session.device.dataContainer("com.example.tiny")).path
            + "/Library/Preferences/com.example.tiny.plist"
        let stored =
            try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: plist)), format: nil)
            as? [String: Any]
        #expect(stored?["TinyCounter"] as? Int == 42)
    }

    @Test("an app that hangs is killed at the timeout")
    func timeout() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let result = try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "hang"], timeout: 0.5))
        #expect(result.termination == .timedOut(seconds: 0.5))
        #expect(result.duration < 5)
        #expect(try String(contentsOfFile: result.logPath, encoding: .utf8).contains("TinyApp: hanging"))
        #expect(!result.endedAtCrashPoint)
    }

    @Test("an app killed by a signal is reported with the signal", arguments: [SIGABRT, SIGSEGV, SIGTERM])
    func signal(_ number: Int32) throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let result = try session.launch(
            "com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "signal", "-TinySignal", "\(number)"]))
        #expect(result.termination == .signaled(number))
        #expect(!result.endedAtCrashPoint)
    }

    @Test("a planned crash point ends the app right after that mutation, and the launch says so")
    func crashPoint() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        let result = try session.launch(
            "com.example.tiny",
            LaunchOptions(
                arguments: ["-TinyMode", "seed"], faultPlan: FaultPlan(crashAfterMutation: 1)))
        #expect(result.termination == .signaled(SIGKILL))
        #expect(result.endedAtCrashPoint)
        #expect(result.crashPoint == 1)
        let log = MutationLogFile.read(result.mutationLogPath)
        #expect(log.map(\.operation) == [.secItemAdd])
        #expect(try session.device.keychainItems().count == 1, "the mutation committed before the kill")
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(!FileManager.default.fileExists(atPath: data.path + "/Documents/tiny-status.json"))
        // The same kill without a plan is not a planned crash point.
        let plain = try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "signal", "-TinySignal", "9"]))
        #expect(plain.termination == .signaled(SIGKILL))
        #expect(!plain.endedAtCrashPoint)
    }

    @Test("a prewarmed launch waits before first unlock and sees protected data become available")
    func prewarm() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp(lockState: .beforeFirstUnlock)
        // The unlock follows the app's own word that it is waiting (a line on a FIFO), not a delay:
        // on a loaded machine a delay can end before the app starts, or long after it gave up.
        // Inside the device: a launch writes nowhere else (WriteConfinement), a FIFO included.
        let fifo = session.layout.directory + "/ready.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<LaunchResult, DeviceError>?
        Thread {
            outcome = Result { () throws(DeviceError) in
                try session.launch(
                    "com.example.tiny",
                    LaunchOptions(arguments: ["-TinyMode", "wait", "-TinyWaitSeconds", "60", "-TinyReadyFIFO", fifo]))
            }
            done.signal()
        }.start()
        #expect(EventWait.readable(reader), "the app is waiting")
        try session.unlock()
        done.wait()
        let result = try #require(outcome).get()
        #expect(result.exitedCleanly)
        #expect(try status(session).contains("\"available\":true"))
    }

    @Test("launches in one session follow installs, upgrades and uninstalls made in it")
    func sessionFollowsInstalls() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        #expect(try session.launch("com.example.tiny").buildID == "v1")
        try session.install(try fixture.build("v2", buildNumber: "200"))
        let upgraded = try session.launch("com.example.tiny")
        #expect(upgraded.buildID == "v2")
        #expect(upgraded.exitedCleanly)
        try session.uninstall("com.example.tiny")
        #expect(throws: DeviceError.notInstalled(bundleID: "com.example.tiny", udid: session.udid)) {
            try session.launch("com.example.tiny")
        }
    }

    @Test("a log that cannot be created is named, and nothing is started")
    func unwritableLog() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        try "x".write(toFile: fixture.directory.file("file"), atomically: true, encoding: .utf8)
        let log = fixture.directory.file("file/app.log")
        #expect(throws: DeviceError.notWritable(log, reason: "cannot create the launch's log")) {
            try session.launch("com.example.tiny", LaunchOptions(logPath: log))
        }
    }

    @Test("launching needs a booted device and an installed app")
    func preconditions() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try fixture.build("v1"))
        #expect(throws: DeviceError.shutDown(udid: session.udid)) { try session.launch("com.example.tiny") }
        try session.boot()
        #expect(throws: DeviceError.notInstalled(bundleID: "com.example.other", udid: session.udid)) {
            try session.launch("com.example.other")
        }
    }
}
