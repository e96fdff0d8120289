import Foundation
import SimRuntime
import Testing
import TestSupport

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
        let lines = log.map { "\($0.mutation ?? 0) \($0.operation.rawValue) \($0.subject.name ?? "")" + ($0.subject.target.map { " -> " + $0 } ?? "") }
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

    @Test("a crash point ends the process right after the call: after the truncating open, the file is empty")
    func crashRightAfter() throws {
        let device = try Device()
        let (run, log) = try device.launch(["mkdir:Documents", "write:Documents/settings.plist=v2"], plan: FaultPlan(crashAfterMutation: 2))
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
        #expect(faulted.operation == .fsWrite && faulted.status == code && faulted.injected == .status(code) && faulted.mutation == nil)
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
}
