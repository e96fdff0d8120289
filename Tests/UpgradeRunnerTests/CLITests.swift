import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

@Suite struct CLITests {
    @Test("a session from create to keychain dump, with the exit codes of docs/architecture.md")
    func session() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let list = cli.run(["device", "list", "--json"])
        #expect(list.code == 0)
        let devices = try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]]
        #expect(devices?.first?["udid"] as? String == udid)
        #expect(devices?.first?["state"] as? String == "booted")
        #expect(devices?.first?["clock"] as? String == "2024-05-01T00:00:00Z")
        #expect((devices?.first?["apps"] as? [[String: Any]])?.first?["buildID"] as? String == "v1")

        let seed = cli.run(["launch", udid, "com.example.tiny", "--", "-TinyMode", "seed", "-TinyValue", "hunter2-secret"])
        #expect(seed.code == 0, "\(seed.error)")
        #expect(seed.output.contains("com.example.tiny (v1) pid "))
        #expect(seed.output.contains("exited with status 0"))

        let dump = cli.run(["keychain", udid, "dump", "--json"])
        #expect(dump.code == 0)
        #expect(!dump.output.contains("hunter2"), "a dump never shows a value")
        let items = try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]]
        #expect(items?.count == 1)
        #expect(items?.first?["service"] as? String == "tiny")
        #expect((items?.first?["dataDigest"] as? String)?.hasPrefix("hmac-sha256:") == true)
        #expect(cli.run(["keychain", udid, "dump", "--json"]).output == dump.output, "keyed digests are stable per device")
        let attributes = try #require(items?.first?["attributes"] as? [String: String])
        #expect(attributes["acct"] == nil, "account has its own column")
        #expect(attributes["cdat"] == "2024-05-01T00:00:00Z", "created at the device clock")
        let text = cli.run(["keychain", "Phone", "dump"])
        #expect(text.output.contains("TEAM123456.com.example.tiny"))
        #expect(!text.output.contains("hunter2"))

        #expect(cli.run(["device", "advance-clock", udid, "31d"]).output == "\(udid): clock 2024-06-01T00:00:00Z\n")
        #expect(cli.run(["device", "lock", udid]).output == "\(udid): locked\n")
        #expect(cli.run(["device", "unlock", udid]).output == "\(udid): unlocked\n")
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200")
        let upgrade = cli.run(["install", udid, "v2"])
        #expect(
            upgrade.output.hasPrefix(
                "\(udid): upgrade com.example.tiny v2 (1.0 build 200) over v1 (1.0 build 100); data container kept"))
        #expect(cli.run(["uninstall", udid, "com.example.tiny"]).code == 0)
        #expect(cli.run(["device", "shutdown", udid]).code == 0)
        #expect(cli.run(["device", "erase", udid]).code == 0)
        #expect(cli.run(["keychain", udid, "dump"]).output == "\(udid): keychain is empty\n")
        #expect(cli.run(["device", "delete", udid]).code == 0)
        #expect(cli.run(["device", "list"]).output.hasPrefix("no devices in "))
    }

    @Test("launch exit codes: 1 for a non-zero status, 2 for a signal or a timeout, 0 at a planned crash point")
    func launchExitCodes() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let failed = cli.run(["launch", udid, "com.example.tiny", "--", "-TinyExit", "3"])
        #expect(failed.code == 1)
        #expect(failed.error.hasPrefix("error: com.example.tiny (v1) pid "))
        #expect(failed.error.contains("exited with status 3; log: "))
        let killed = cli.run(["launch", udid, "com.example.tiny", "--", "-TinyMode", "signal", "-TinySignal", "6"])
        #expect(killed.code == 2)
        #expect(killed.error.contains("was killed by signal 6 (SIGABRT)"))
        #expect(killed.error.split(separator: "\n").count == 1)
        let hung = cli.run(["launch", udid, "com.example.tiny", "--timeout", "0.5", "--", "-TinyMode", "hang"])
        #expect(hung.code == 2)
        #expect(hung.error.contains("timed out after 0.5 s and was killed"))
        let crash = cli.run(["launch", udid, "com.example.tiny", "--crash-after", "1", "--json", "--", "-TinyMode", "seed"])
        #expect(crash.code == 0)
        let report = try JSONSerialization.jsonObject(with: Data(crash.output.utf8)) as? [String: Any]
        #expect(report?["endedAtCrashPoint"] as? Bool == true)
        #expect(report?["signal"] as? Int == 9)
        let powerLoss = cli.run([
            "launch", udid, "com.example.tiny", "--crash-after", "1", "--power-loss", "--", "-TinyMode", "seed",
        ])
        #expect(powerLoss.code == 0, "a power loss at the planned point is that point: \(powerLoss.error)")
        #expect(powerLoss.output.contains("at planned crash point 1"))
        let alone = cli.run(["launch", udid, "com.example.tiny", "--power-loss"])
        #expect(alone.code == 2)
        #expect(
            alone.error
                == "error: launch: option --crash-after (for --power-loss) is required; see upgrade-runner launch --help\n")
    }

    @Test("entitlements diff: 0 when the new build reaches every old group, 1 when not, with item counts from a device")
    func entitlementsDiff() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        #expect(cli.run(["launch", udid, "com.example.tiny", "--", "-TinyMode", "seed"]).code == 0)
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200", groups: ["group.com.example.tiny"])
        let compatible = cli.run(["entitlements", "diff", "v1", "v2"])
        #expect(compatible.code == 0, "\(compatible.output)\(compatible.error)")
        try BuildFixture.write(in: cli.builds, id: "v3", buildNumber: "300", team: "NEWTEAM999")
        let transferred = cli.run(["entitlements", "diff", "v1", "v3", "--device", udid, "--json"])
        #expect(transferred.code == 1)
        let report = try JSONSerialization.jsonObject(with: Data(transferred.output.utf8)) as? [String: Any]
        #expect((report?["itemCounts"] as? [String: Int])?["TEAM123456.com.example.tiny"] == 1)
        let missing = cli.run(["entitlements", "diff", "v1", "v9"])
        #expect(missing.code == 2)
        #expect(missing.error.hasPrefix("error: "))
        #expect(cli.run(["entitlements", "diff", "v1", "v3", "--device", "Nope"]).code == 2)
    }

    @Test("entitlements show and diff take repeated --setting and --settings FILE for an .entitlements file's variables")
    func entitlementsSettings() throws {
        let cli = try CLI()
        let file = cli.directory.file("App.entitlements")
        let xml = """
            <plist version="1.0"><dict><key>application-identifier</key><string>$(AppIdentifierPrefix)$(APP_ID)</string>
            <key>keychain-access-groups</key><array><string>$(TeamIdentifierPrefix)${BASE}.shared</string></array>
            </dict></plist>
            """
        try xml.write(toFile: file, atomically: true, encoding: .utf8)
        try "DEVELOPMENT_TEAM = TEAM123456\nBASE = com.example\n".write(
            toFile: cli.directory.file("Base.xcconfig"), atomically: true, encoding: .utf8)
        let shown = cli.run([
            "entitlements", "show", file, "--setting", "APP_ID=com.example.tiny", "--setting=BASE=com.example",
            "--setting", "DEVELOPMENT_TEAM=TEAM123456",
        ])
        #expect(shown.code == 0, "\(shown.error)")
        #expect(shown.output.contains("<string>TEAM123456.com.example.tiny</string>"))
        #expect(shown.output.contains("<string>TEAM123456.com.example.shared</string>"))
        let diffed = cli.run([
            "entitlements", "diff", file, file, "--settings", cli.directory.file("Base.xcconfig"), "--setting",
            "APP_ID=com.example.tiny",
        ])
        #expect(diffed.code == 0, "\(diffed.error)")
        let missing = cli.run(["entitlements", "show", file, "--setting", "DEVELOPMENT_TEAM=TEAM123456"])
        #expect(missing.code == 2)
        #expect(missing.error.hasPrefix("error: \(file): key application-identifier: variable $(APP_ID) left unexpanded"))
    }

    @Test(
        "gate and run refuse an unknown build id with one line naming it, exit 2, and write nothing",
        arguments: [
            ["gate"], ["gate", "--builds", "v1,nope"], ["run", "--from", "v1", "--to", "v2"],
        ])
    func unknownBuild(words: [String]) throws {
        let cli = try CLI()
        let result = cli.run(words + ["--out", cli.directory.path + "/out"])
        #expect(result.code == 2)
        #expect(result.error.hasPrefix("error: unknown build \"v1\""))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.directory.path + "/out"))
    }

    @Test(
        "mutants with no builds/mutants folder is bad input: exit 2, one line naming the folder",
        arguments: [
            ["mutants"], ["mutants", "--jobs", "2"],
        ])
    func mutantsWithoutCatalogue(words: [String]) throws {
        let cli = try CLI()
        let result = cli.run(words + ["--out", cli.directory.file("out")])
        #expect(result.code == 2)
        #expect(result.error.contains(cli.builds + "/mutants"))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.directory.file("out")))
    }

    @Test(
        "run refuses a path from a build to itself, and a case id that is not plain ASCII or starts with a dash",
        arguments: [
            (["run", "--from", "v1", "--to", "v1"], "--to: \"v1\" is also --from"),
            (["run", "--to", "v1", "--case-id", "-abc"], "--case-id: \"-abc\""),
            (["gate", "--case-id", "café"], "--case-id: \"café\""),
        ])
    func badPathOrCaseID(words: [String], naming: String) throws {
        let cli = try CLI()
        let out = cli.directory.path + "/out"
        let result = cli.run(words + ["--out", out])
        #expect(result.code == 2)
        #expect(result.error.hasPrefix("error: " + naming), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("gate refuses a manifest naming a missing executable before anything runs, naming the build")
    func gateMissingExecutable() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200", executable: "NoSuchApp")
        let out = cli.directory.path + "/out"
        let result = cli.run(["gate", "--builds", "v1,v2", "--out", out])
        #expect(result.code == 2)
        #expect(
            result.error
                == "error: build v2: executable \"NoSuchApp\" not found in products folder \(BuiltProducts.directory.path)\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "usage errors are one line with exit 2",
        arguments: [
            (["instal"], "error: unknown command \"instal\"; did you mean \"install\"?\n"),
            (["device", "creat"], "error: unknown command \"device creat\"; did you mean \"device create\"?\n"),
            (["device", "create"], "error: device create: missing argument NAME; see upgrade-runner device create --help\n"),
            (["device", "list", "--jsn"], "error: device list: unknown option --jsn; did you mean --json?\n"),
            (
                ["device", "create", "x", "--runtime", "Android 14"],
                "error: --runtime: \"Android 14\" is not an iOS version such as \"iOS 17.5\"\n"
            ),
            (["launch", "D", "B", "--timeout", "soon"], "error: --timeout: \"soon\" is not a positive number of seconds\n"),
        ])
    func usageErrors(words: [String], expected: String) throws {
        let result = try CLI().run(words)
        #expect(result.code == 2)
        #expect(result.error == expected)
    }
}

/// Each bad input of the issue through the command line: one line naming the thing, exit 2, nothing deleted.
@Suite struct CLIBadInputTests {
    /// - Parameter liveApp: a launched app is still running on the device; its log and the keychain's
    ///   WAL files may change under the test, so they are left out of the comparison.
    private func expectRefused(
        _ cli: CLI, _ words: [String], naming: String, liveApp: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        func tree() -> [String] {
            BuildFixture.tree(cli.directory.path).filter {
                !liveApp
                    || !($0.contains("/logs/") || $0.contains("/logs ") || $0.contains(".db-wal ") || $0.contains(".db-shm "))
            }
        }
        let before = tree()
        let result = cli.run(words)
        #expect(result.code == 2, sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("error: "), sourceLocation: sourceLocation)
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.contains(naming), "\(result.error)", sourceLocation: sourceLocation)
        #expect(tree() == before, "nothing changed", sourceLocation: sourceLocation)
    }

    @Test("device sync: the other device missing, unknown or the same device: one line, exit 2, nothing changed")
    func syncRefusals() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        expectRefused(cli, ["device", "sync", udid], naming: "option --with OTHER is required")
        expectRefused(cli, ["device", "sync", udid, "--with", "Nope"], naming: "unknown device \"Nope\"")
        expectRefused(cli, ["device", "sync", "Nope", "--with", udid], naming: "unknown device \"Nope\"")
        expectRefused(cli, ["device", "sync", udid, "--with", "Phone"], naming: "--with names the same device")
        let other = cli.run(["device", "create", "Tablet", "--udid", "TEST-DEVICE-2"])
        #expect(other.code == 0)
        let synced = cli.run(["device", "sync", udid, "--with", "Tablet"])
        #expect(synced.code == 0, "\(synced.error)")
        #expect(synced.output.hasPrefix("\(udid): 0 added, 0 updated, 0 deleted\nTEST-DEVICE-2: 0 added, 0 updated, 0 deleted\n"))
    }

    @Test("unknown device")
    func unknownDevice() throws {
        let cli = try CLI()
        _ = try cli.bootedDevice()
        for words in [
            ["device", "boot", "Nope"], ["install", "Nope", "v1"], ["launch", "Nope", "com.example.tiny"],
            ["keychain", "Nope", "dump"], ["device", "delete", "Nope"],
        ] {
            expectRefused(cli, words, naming: "unknown device \"Nope\"")
        }
    }

    @Test("malformed device.json")
    func malformedRecord() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let record = cli.root + "/" + udid + "/device.json"
        try "{\"udid\": 3}".write(toFile: record, atomically: true, encoding: .utf8)
        expectRefused(cli, ["device", "erase", udid], naming: "\(record): field \"")
        expectRefused(cli, ["launch", udid, "com.example.tiny"], naming: record)
        let list = cli.run(["device", "list"])
        #expect(list.code == 2)
        #expect(list.error.contains(record))
    }

    @Test("builds folder with a missing or malformed manifest or entitlements, and a missing executable")
    func badBuilds() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let folder = try BuildFixture.write(in: cli.builds, id: "v5", buildNumber: "500")
        try FileManager.default.removeItem(atPath: folder + "/build.json")
        expectRefused(cli, ["install", udid, "v5"], naming: "\(folder)/build.json: build manifest is missing")
        try "{\"id\": \"v5\"}".write(toFile: folder + "/build.json", atomically: true, encoding: .utf8)
        expectRefused(cli, ["install", udid, "v5"], naming: "\(folder)/build.json: field \"bundleID\" is missing")
        try BuildFixture.write(in: cli.builds, id: "v5", buildNumber: "500")
        try "junk".write(toFile: folder + "/App.entitlements", atomically: true, encoding: .utf8)
        expectRefused(cli, ["install", udid, "v5"], naming: "\(folder)/App.entitlements: line 1: expected a property list")
        try FileManager.default.removeItem(atPath: folder + "/App.entitlements")
        expectRefused(cli, ["install", udid, "v5"], naming: "\(folder)/App.entitlements")
        try BuildFixture.write(in: cli.builds, id: "v5", buildNumber: "500", executable: "Missing")
        expectRefused(cli, ["install", udid, "v5"], naming: "build v5: executable \"Missing\" not found in products folder")
        expectRefused(cli, ["install", udid, "v6"], naming: "unknown build \"v6\"")
    }

    @Test("devices root that is not writable")
    func rootNotWritable() throws {
        let cli = try CLI()
        try "x".write(toFile: cli.directory.file("file"), atomically: true, encoding: .utf8)
        let root = cli.directory.file("file/devices")
        expectRefused(cli, ["device", "create", "x", "--devices-root", root], naming: "\(root) is not writable")
    }

    @Test("an app that hangs, and an app killed by a signal, leave the device as it was")
    func badApps() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let data = try #require(
            FileManager.default.contentsOfDirectory(atPath: cli.root + "/\(udid)/data/Containers/Data/Application").first)
        let containers = cli.root + "/\(udid)/data/Containers"
        _ = cli.run(["launch", udid, "com.example.tiny"])
        let before = BuildFixture.tree(containers)
        let hung = cli.run(["launch", udid, "com.example.tiny", "--timeout", "0.3", "--", "-TinyMode", "hang"])
        #expect(hung.code == 2)
        #expect(hung.error.contains("com.example.tiny (v1)"))
        let killed = cli.run(["launch", udid, "com.example.tiny", "--", "-TinyMode", "signal", "-TinySignal", "11"])
        #expect(killed.code == 2)
        #expect(killed.error.contains("SIGSEGV"))
        #expect(BuildFixture.tree(containers) == before)
        #expect(FileManager.default.fileExists(atPath: containers + "/Data/Application/\(data)"))
    }

    @Test("a device in use by another process is refused with that process's pid, and freed when it dies")
    func deviceInUse() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        // Another upgrade-runner process holds the device while its app hangs.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: BuiltProducts.executable("upgrade-runner"))
        holder.arguments = [
            "launch", udid, "com.example.tiny", "--devices-root", cli.root, "--timeout", "60",
            "--", "-TinyMode", "hang", "-TinyHangSeconds", "5",
        ]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        let lockFile = cli.root + "/\(udid)/device.lock"
        let deadline = Date().addingTimeInterval(20)
        while (try? String(contentsOfFile: lockFile, encoding: .utf8)) != "\(holder.processIdentifier)\n", Date() < deadline {
            usleep(20_000)
        }
        expectRefused(
            cli, ["device", "lock", udid], naming: "device \(udid) is in use by pid \(holder.processIdentifier)",
            liveApp: true)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        // The app it launched held the lock too, and dies with its launcher: the device is free
        // once the kernel has ended it (the next holder waits for that moment).
        let lock = cli.run(["device", "lock", udid])
        #expect(lock.code == 0, "\(lock.error)")
    }

    @Test("an app dies with its launcher, and the device stays locked while it runs")
    func appDiesWithLauncher() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        // The app announces itself on a FIFO and holds it open: its line is the event "running",
        // the FIFO's hang-up the event "ended". No clock in between.
        // Inside the device: a launch writes nowhere else (WriteConfinement), a FIFO included.
        let fifo = cli.root + "/" + udid + "/ready.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: BuiltProducts.executable("upgrade-runner"))
        launcher.arguments = [
            "launch", udid, "com.example.tiny", "--devices-root", cli.root, "--timeout", "60", "--",
            "-TinyMode", "hang", "-TinyReadyFIFO", fifo,
        ]
        launcher.standardOutput = FileHandle.nullDevice
        launcher.standardError = FileHandle.nullDevice
        try launcher.run()
        #expect(EventWait.readable(reader), "the app started")
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = read(reader, &buffer, buffer.count)
        let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
        let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        expectRefused(
            cli, ["install", udid, "v1"], naming: "device \(udid) is in use by pid \(launcher.processIdentifier)",
            liveApp: true)
        kill(launcher.processIdentifier, SIGKILL)
        launcher.waitUntilExit()
        #expect(EventWait.hangUp(reader), "the app (pid \(pid)) outlived its launcher")
        let install = cli.run(["install", udid, "v1"])
        #expect(install.code == 0, "\(install.error)")
    }
}

/// `device backup` and `device restore` from the command line: what a user types, its exit codes
/// and one-line messages, and a backup's permissions (it holds secrets).
@Suite struct DeviceBackupCLITests {
    @Test(
        "backup writes a 0700 folder; an existing folder, the source device and a non-empty device are exit 2, naming them; a restore onto a new device succeeds"
    )
    func backupAndRestore() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let folder = cli.directory.file("phone-backup")
        let backup = cli.run(["device", "backup", udid, folder])
        #expect(backup.code == 0, "\(backup.error)")
        #expect(backup.output.contains("backed up to \(folder)"))
        let mode = try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int
        #expect(mode == 0o700)
        #expect(FileManager.default.fileExists(atPath: folder + "/backup.json"))

        let again = cli.run(["device", "backup", udid, folder])
        #expect(again.code == 2)
        #expect(again.error.contains(folder), "\(again.error)")

        let ontoSource = cli.run(["device", "restore", udid, folder])
        #expect(ontoSource.code == 2)
        #expect(ontoSource.error.contains("the device the backup was made of"), "\(ontoSource.error)")

        let fresh = "TEST-DEVICE-2"
        #expect(cli.run(["device", "create", "New Phone", "--udid", fresh]).code == 0)
        #expect(cli.run(["device", "boot", fresh]).code == 0)
        let restored = cli.run(["device", "restore", fresh, folder])
        #expect(restored.code == 0, "\(restored.error)")
        #expect(restored.output.contains("from the backup of \(udid)"))
        let twice = cli.run(["device", "restore", fresh, folder])
        #expect(twice.code == 2)
        #expect(twice.error.contains("not empty"), "\(twice.error)")

        let missing = cli.run(["device", "restore", fresh, cli.directory.file("no-such-backup")])
        #expect(missing.code == 2)
        #expect(missing.error.contains("no-such-backup"), "\(missing.error)")
    }
}
