import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import TestSupport
import Testing

@Suite("Where a run's temporary devices go")
struct TemporaryDevicesTests {
    @Test("UPGRADE_RUNNER_SCRATCH, then TMPDIR, then a memory file system with room, then the temporary folder")
    func parentFolder() {
        #expect(
            TemporaryDevices.parent(needing: 0, environment: ["UPGRADE_RUNNER_SCRATCH": "/scratch", "TMPDIR": "/t"])
                == "/scratch/")
        #expect(TemporaryDevices.parent(needing: 0, environment: ["TMPDIR": "/t/"]) == "/t/")
        // Nothing has room for this much, so the temporary folder it is.
        #expect(TemporaryDevices.parent(needing: Int.max / 2, environment: [:]) == NSTemporaryDirectory())
        // The room is read before and after the choice: tests beside this one write devices to
        // /dev/shm, and a room that changed across the margin in between allows either answer.
        let roomBefore = Self.memoryFileSystemHasRoom
        let chosen = TemporaryDevices.parent(needing: 0, environment: [:])
        let roomAfter = Self.memoryFileSystemHasRoom
        var allowed: Set<String> = []
        if roomBefore || roomAfter { allowed.insert("/dev/shm/") }
        if !roomBefore || !roomAfter { allowed.insert(NSTemporaryDirectory()) }
        #expect(allowed.contains(chosen), "\(chosen) (room before \(roomBefore), after \(roomAfter))")
    }

    @Test("a memory file system is a tmpfs mount of that folder in the mounts table, nothing else")
    func memoryFileSystem() {
        let mounts = """
            /dev/vda / ext4 rw,relatime 0 0
            tmpfs /dev/shm tmpfs rw,nosuid,nodev 0 0
            shm /run/shm ext4 rw 0 0
            """
        #expect(TemporaryDevices.isMemoryFileSystem("/dev/shm", mounts: mounts))
        #expect(!TemporaryDevices.isMemoryFileSystem("/run/shm", mounts: mounts), "mounted, but not as tmpfs")
        #expect(!TemporaryDevices.isMemoryFileSystem("/", mounts: mounts))
        #expect(!TemporaryDevices.isMemoryFileSystem("/dev/shm", mounts: nil), "no mounts table")
    }

    @Test(
        "an executable on another file system is copied once and linked by later runs; one on the same is left",
        .enabled(if: memoryFileSystemHasRoom, "needs /dev/shm as a tmpfs with room beside the temporary folder"))
    func staging() throws {
        let memory = TemporaryDevices.parent(needing: 0, environment: [:])
        let disk = try TemporaryDirectory("staging-disk")
        let root = memory + "staging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var diskInfo = stat(), memoryInfo = stat()
        try #require(stat(disk.path, &diskInfo) == 0 && stat(root, &memoryInfo) == 0 && diskInfo.st_dev != memoryInfo.st_dev)
        let executable = disk.file("App")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: executable))
        chmod(executable, 0o755)
        let local = root + "/Local"
        try Data("local".utf8).write(to: URL(fileURLWithPath: local))
        var far = try BuildCatalog(folder: BuiltProducts.repositoryBuilds, productsFolder: "/nonexistent").build(
            "v1", requiringExecutable: false)
        far.executablePath = executable
        var near = far
        near.executablePath = local
        let stage = BuildStage(folder: root)
        let staged = try stage.staged(["far": far, "near": near], for: root)
        let copy = root + "/builds/0-far/App"
        #expect(staged["far"]?.executablePath == copy)
        #expect(FileManager.default.contents(atPath: copy) == FileManager.default.contents(atPath: executable))
        #expect(FileManager.default.isExecutableFile(atPath: copy))
        #expect(staged["near"] == near, "same file system: installs hard-link it where it is")
        // Another run of the same command links the same copy; a changed source is copied again.
        #expect(try stage.staged(["again": far], for: root)["again"]?.executablePath == copy)
        try Data("#!/bin/sh\nexit 1 # a new length\n".utf8).write(to: URL(fileURLWithPath: executable))
        let recopied = try stage.staged(["far": far], for: root)["far"]?.executablePath
        #expect(recopied != copy)
        #expect(recopied.flatMap { FileManager.default.contents(atPath: $0) } == Data("#!/bin/sh\nexit 1 # a new length\n".utf8))
    }

    @Test(
        "an app extension's executable on another file system is staged too: the app's own file once, another file beside it",
        .enabled(if: memoryFileSystemHasRoom, "needs /dev/shm as a tmpfs with room beside the temporary folder"))
    func stagingExtensions() throws {
        let memory = TemporaryDevices.parent(needing: 0, environment: [:])
        let disk = try TemporaryDirectory("staging-extension-disk")
        let root = memory + "staging-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var names: [String: String] = [:]
        for name in ["App", "Widget"] {
            names[name] = disk.file(name)
            try Data("#!/bin/sh\nexit 0 # \(name)\n".utf8).write(to: URL(fileURLWithPath: names[name]!))
            chmod(names[name]!, 0o755)
        }
        let builds = disk.file("builds")
        try BuildFixture.write(in: builds, id: "v1")
        for name in ["notify", "widget"] { try BuildFixture.addExtension(to: builds + "/v1", name: name) }
        var build = try BuildCatalog(folder: builds, productsFolder: "/nonexistent").build("v1", requiringExecutable: false)
        build.executablePath = names["App"]!
        build.extensions[0].executablePath = names["App"]!
        build.extensions[1].executablePath = names["Widget"]!
        // An install of an extension whose executable is still on the other file system would copy it
        // (a write descriptor that a concurrent fork can hold: ETXTBSY for the next launch of it).
        let staged = try #require(try BuildStage(folder: root).staged(["v1": build], for: root)["v1"])
        #expect(staged.executablePath.hasPrefix(root + "/builds/") && staged.executablePath.hasSuffix("-v1/App"))
        #expect(staged.extensions[0].executablePath == staged.executablePath, "the app's own file, one copy")
        let widget = staged.extensions[1].executablePath
        #expect(widget.hasPrefix(root + "/builds/") && widget.hasSuffix("-v1/Widget"), "\(widget)")
        #expect(FileManager.default.contents(atPath: widget) == FileManager.default.contents(atPath: names["Widget"]!))
        #expect(BuildStage.bytes(of: [build]) == 23 + 26)
    }

    @Test("a command's shared stage names the folder it chose as the parent of the runs' devices")
    func sharedStageParent() throws {
        let stage = try BuildStage.shared(needing: 1)
        defer { TemporaryDevices.remove(stage.folder) }
        #expect(stage.parent == TemporaryDevices.parent(needing: 1), "where the stage went, with its trailing slash")
        #expect(stage.folder.hasPrefix(stage.parent + TemporaryDevices.prefix))
    }

    @Test("an UPGRADE_RUNNER_SCRATCH that is not a writable folder is bad input naming it; none or a folder passes")
    func scratchCheck() throws {
        let directory = try TemporaryDirectory("scratch-check")
        #expect(throws: Never.self) { try TemporaryDevices.checkScratch(environment: [:]) }
        #expect(throws: Never.self) { try TemporaryDevices.checkScratch(environment: ["UPGRADE_RUNNER_SCRATCH": directory.path]) }
        let missing = directory.file("missing")
        do {
            try TemporaryDevices.checkScratch(environment: ["UPGRADE_RUNNER_SCRATCH": missing])
            Issue.record("accepted \(missing)")
        } catch {
            #expect(!error.isEnvironmentFailure)
            #expect("\(error)".contains("UPGRADE_RUNNER_SCRATCH"))
        }
    }

    /// Whether /dev/shm is a tmpfs here with room for a run (the mounts table read by the code
    /// under test, whose parsing `memoryFileSystem` checks; the room by `statvfs`).
    static var memoryFileSystemHasRoom: Bool {
        var space = statvfs()
        return TemporaryDevices.isMemoryFileSystem("/dev/shm") && access("/dev/shm", W_OK) == 0
            && statvfs("/dev/shm", &space) == 0
            && Int(space.f_bavail) * Int(space.f_frsize) >= TemporaryDevices.memoryMargin
    }
}
