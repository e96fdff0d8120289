import Foundation
import SimRuntime
import Testing
import TestSupport
import SimSupervision

/// The file supervisor in real launched processes: `file-mutator` changes files through Foundation
/// only (no harness API), the way iOS code does, under a launch context of a made-up device.
@Suite struct FileSupervisionTests {
    struct Device {
        let folder: TemporaryDirectory
        var container: String { folder.file("data") }
        var log: String { folder.file("mutations.log") }

        init() throws {
            folder = try TemporaryDirectory("file-supervision")
            try FileManager.default.createDirectory(atPath: folder.file("data"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: folder.file("group"), withIntermediateDirectories: true)
        }

        func launch(_ steps: [String], plan: FaultPlan = .none) throws -> (ProcessRun, [SeamEntry]) {
            let context = LaunchContext(
                udid: "UDID", deviceDirectory: folder.path, bundleID: "com.example.mail",
                identity: AppIdentity(
                    bundleID: "com.example.mail", applicationIdentifier: "TEAM.com.example.mail",
                    keychainAccessGroups: [], applicationGroups: ["group.example"]),
                runtime: RuntimeVersion(major: 17), keychainPath: folder.file("keychain.db"), dataContainer: container,
                appGroupContainers: ["group.example": folder.file("group")], lockStatePath: folder.file("lockstate"),
                clock: Date(timeIntervalSince1970: 1_700_000_000), arguments: [], faultPlan: plan, mutationLogPath: log)
            let run = try ProcessRun.run(
                BuiltProducts.executable("file-mutator"), steps,
                environment: [LaunchContext.environmentKey: try context.encoded()])
            return (run, MutationLogFile.read(log))
        }

        func contents(_ relative: String) -> String? {
            FileManager.default.contents(atPath: container + "/" + relative).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    static let migration = [
        "mkdir:Library/Application Support", "atomic:Library/Application Support/account.archive=token",
        "move:Library/Application Support/account.archive=Library/Application Support/old.archive",
        "remove:Library/Application Support/old.archive", "null",
    ]

    @Test("Foundation's file calls are numbered in one sequence, named in the app's words; /dev/null is not a mutation")
    func numbered() throws {
        let device = try Device()
        let (run, log) = try device.launch(Self.migration)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "ok\nok\nok\nok\nok\n")
        let lines = log.map {
            "\($0.mutation ?? 0) \($0.operation.rawValue) \($0.subject.name ?? "")"
                + ($0.subject.target.map { " -> " + $0 } ?? "")
        }
        #expect(
            lines == [
                "1 fs.mkdir Library", "2 fs.mkdir Library/Application Support",
                "3 fs.open Library/Application Support/.dat.nosync*", "4 fs.write Library/Application Support/.dat.nosync*",
                "5 fs.sync Library/Application Support/.dat.nosync*",
                "6 fs.rename Library/Application Support/.dat.nosync* -> Library/Application Support/account.archive",
                "7 fs.rename Library/Application Support/account.archive -> Library/Application Support/old.archive",
                "8 fs.unlink Library/Application Support/old.archive",
            ])
        #expect(log.allSatisfy { $0.status == 0 && $0.subject.store == "file" })
    }

    @Test(
        "the app's own SQLite database is supervised; a store operation's own SQLite calls pass the filter without a round trip"
    )
    func sqliteDatabases() throws {
        let device = try Device()
        let (run, log) = try device.launch([
            "served", "store-sqlite:store.db=a", "served", "sqlite:app.db=b", "served",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 5, "\(run.stdout)")
        let served = [lines[0], lines[2], lines[4]].map { Int($0.dropFirst(3)) ?? -1 }
        // The store's calls (open, writes, journal removal) cost the supervisor thread nothing.
        #expect(served[1] == served[0], "\(run.stdout)")
        // The app's database is trapped call by call, and each call is a mutation in the app's words.
        #expect(served[2] > served[1], "\(run.stdout)")
        let names = Set(log.compactMap { $0.subject.name })
        #expect(names.contains("app.db") && names.contains("app.db-journal"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("store.db") }, "\(names)")
        let operations = Set(log.filter { $0.subject.name == "app.db-journal" }.map(\.operation))
        #expect(operations.isSuperset(of: [.fsOpen, .fsWrite, .fsSync, .fsUnlink]), "\(operations)")
        #expect(FileManager.default.fileExists(atPath: device.container + "/store.db"))
    }

    @Test("a crash point ends the process right after the call: after the truncating open, the file is empty")
    func crashRightAfter() throws {
        let device = try Device()
        let (run, log) = try device.launch(
            ["mkdir:Documents", "write:Documents/settings.plist=v2"], plan: FaultPlan(crashAfterMutation: 2))
        #expect(run.signal == SIGKILL)
        #expect(log.last?.operation == .fsOpen && log.last?.mutation == 2)
        #expect(device.contents("Documents/settings.plist") == "")

        let (after, afterLog) = try device.launch(["write:Documents/settings.plist=v3"], plan: FaultPlan(crashAfterMutation: 2))
        #expect(after.signal == SIGKILL)
        #expect(afterLog.last?.operation == .fsWrite)
        #expect(device.contents("Documents/settings.plist") == "v3")
    }

    @Test("a fault answers the app an errno and changes nothing; a lost write answers success", arguments: [ENOSPC, EIO, EACCES])
    func faults(code: Int32) throws {
        let device = try Device()
        let (run, log) = try device.launch(
            ["mkdir:Documents", "write:Documents/a=one"], plan: FaultPlan(faults: [Fault(.fsWrite, call: 1, .status(code))]))
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("ok\nerror "))
        #expect(device.contents("Documents/a") == "")
        let faulted = try #require(log.last)
        #expect(
            faulted.operation == .fsWrite && faulted.status == code && faulted.injected == .status(code)
                && faulted.mutation == nil)
    }

    @Test("FileManager's copy writes with sendfile: a write of the copy, and a crash point after it")
    func copy() throws {
        let device = try Device()
        let (run, log) = try device.launch(["mkdir:Documents", "write:Documents/a=token", "copy:Documents/a=Documents/b"])
        #expect(run.stdout == "ok\nok\nok\n")
        let copied = log.filter { $0.subject.name == "Documents/b" }.map(\.operation)
        #expect(copied.first == .fsOpen && copied.contains(.fsWrite), "\(log)")
        #expect(device.contents("Documents/b") == "token")
    }

    @Test("a write that reports success but stores nothing")
    func lostWrite() throws {
        let device = try Device()
        let (run, log) = try device.launch(
            ["mkdir:Documents", "write:Documents/a=one"], plan: FaultPlan(faults: [Fault(.fsWrite, call: 1, .dropWrite)]))
        #expect(run.stdout == "ok\nok\n")
        #expect(device.contents("Documents/a") == "")
        #expect(log.contains { $0.operation == .fsWrite && $0.injected == .dropWrite && $0.mutation == nil })
    }

    @Test("a file outside the container and the groups is refused, as the sandbox refuses it, and recorded with its path")
    func outsideTheSandbox() throws {
        let device = try Device()
        let outside = device.folder.file("outside.txt")
        let (run, log) = try device.launch(["outside:\(outside)=x", "mkdir:Documents"])
        #expect(run.stdout == "error -513\nok\n")  // NSFileWriteNoPermissionError
        #expect(!FileManager.default.fileExists(atPath: outside))
        #expect(log.first?.subject == SeamSubject(store: FileSupervision.outsideStore, name: outside))
        #expect(log.first?.status == EPERM && log.first?.mutation == nil)
        #expect(log.last?.mutation == 1)
    }

    // MARK: Power loss

    /// Runs `steps` as one launch with a fresh mutation log; the planned point, when the plan has
    /// none, is right after the launch's last mutation (counted on a device prepared the same way).
    func launchLosingPower(
        _ device: Device, _ steps: [String], after point: Int? = nil, crash: Bool = false, prepared: [String] = []
    ) throws -> (ProcessRun, [SeamEntry]) {
        var point = point
        if point == nil {
            let dry = try Device()
            if !prepared.isEmpty { _ = try dry.launch(prepared) }
            try? FileManager.default.removeItem(atPath: dry.log)
            point = try dry.launch(steps).1.compactMap(\.mutation).max()
        }
        try? FileManager.default.removeItem(atPath: device.log)
        let k = try #require(point)
        return try device.launch(steps, plan: crash ? FaultPlan(crashAfterMutation: k) : .powerLoss(afterMutation: k))
    }

    @Test("a power loss keeps what Data.write synced and the metadata, and takes data written since a file's last fsync")
    func powerLossTakesUnsyncedData() throws {
        let prepared = ["mkdir:Documents", "bare:Documents/truncated=old", "bare:Documents/appended=old"]
        let steps = [
            "atomic:Documents/atomic=new", "write:Documents/write=new", "bare:Documents/truncated=new",
            "bare:Documents/created=new", "append:Documents/appended=+synced", "fsync:Documents/appended",
            "append:Documents/appended=+lost", "mkdir:Documents/end",
        ]
        let device = try Device()
        _ = try device.launch(prepared)  // a launch that exits: all of it stays
        let (run, log) = try launchLosingPower(device, steps, prepared: prepared)
        #expect(run.signal == SIGKILL)
        #expect(device.contents("Documents/atomic") == "new", "Data.write(options: .atomic) syncs before its rename")
        #expect(device.contents("Documents/write") == "new", "Data.write syncs before it returns")
        #expect(device.contents("Documents/truncated") == "", "the truncation stays, the bare write is lost")
        #expect(device.contents("Documents/created") == "", "the file stays, its bare write is lost")
        #expect(device.contents("Documents/appended") == "old+synced")
        #expect(FileManager.default.fileExists(atPath: device.container + "/Documents/end"))
        let lost = log.filter { $0.operation == .powerLoss }
        #expect(lost.map { $0.subject.name ?? "" } == ["Documents/appended", "Documents/created", "Documents/truncated"])
        #expect(lost.allSatisfy { $0.subject.store == "file" && $0.mutation == nil })
        #expect(log.last(where: { $0.operation != .powerLoss })?.operation == .fsMkdir)

        let crashed = try Device()
        _ = try crashed.launch(prepared)
        _ = try launchLosingPower(crashed, steps, crash: true, prepared: prepared)
        #expect(crashed.contents("Documents/truncated") == "new", "a crash is not a power loss: the page cache has the write")
        #expect(crashed.contents("Documents/appended") == "old+synced+lost")
    }

    @Test(
        "a power loss inside an atomic write leaves the old file until the rename; inside a plain Data.write, before its fsync, an empty one"
    )
    func powerLossInsideDataWrite() throws {
        // Data.write(options: .atomic): open, write, fsync the temporary file, rename it over the file.
        let atomic = try Device()
        _ = try atomic.launch(["mkdir:Documents", "atomic:Documents/settings=v1"])
        _ = try launchLosingPower(atomic, ["atomic:Documents/settings=v2"], after: 3)
        #expect(atomic.contents("Documents/settings") == "v1")
        _ = try launchLosingPower(atomic, ["atomic:Documents/settings=v2"], after: 4)
        #expect(atomic.contents("Documents/settings") == "v2")

        // Data.write without .atomic: open (truncating), write, fsync.
        let plain = try Device()
        _ = try plain.launch(["mkdir:Documents", "atomic:Documents/settings=v1"])
        let (_, log) = try launchLosingPower(plain, ["write:Documents/settings=v2"], after: 2)
        #expect(log.filter { $0.mutation != nil }.map(\.operation) == [.fsOpen, .fsWrite])
        #expect(plain.contents("Documents/settings") == "", "the truncating open stays; the write before the fsync is lost")
        _ = try launchLosingPower(plain, ["write:Documents/settings=v3"], after: 3)
        #expect(plain.contents("Documents/settings") == "v3")
    }
}
