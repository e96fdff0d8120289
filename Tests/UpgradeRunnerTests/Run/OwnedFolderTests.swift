import Foundation
@testable import GateModel
import TestSupport
import Testing

/// Sweeps remove a temporary folder by proof (a runner's marker whose lock is free), never by its name
/// or a pid in it (#37): a pid proves nothing across PID namespaces sharing one TMPDIR or /dev/shm.
@Suite("Temporary folders are swept by ownership, not names")
struct OwnedFolderTests {
    /// A folder made as a runner makes one, whose owner then ended (its lock released).
    private func abandoned(_ path: String) throws {
        try #require(throws: Never.self) { try OwnedFolder.create(path) }
        try "secret".write(toFile: path + "/keychain.db", atomically: false, encoding: .utf8)
        OwnedFolder.release(path)
    }

    @Test("a folder whose marker lock another process holds is never removed; once that process ends, it is")
    func liveOwnerInAnotherProcess() throws {
        let directory = try TemporaryDirectory("owned")
        // This process's own pid in the name, which the old sweep skipped as "mine": the proof is the lock.
        let folder = directory.file(RunBundle.unpackPrefix + "\(getpid())-live")
        try abandoned(folder)
        // Another runner (a process that could sit in any PID namespace) holds the marker's lock.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-x", folder + "/" + OwnedFolder.markerName, "/bin/sh", "-c", "echo locked; cat"]
        let input = Pipe()
        let output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")
        AbandonedFolders.remove(in: directory.path, prefixes: [RunBundle.unpackPrefix])
        #expect(FileManager.default.fileExists(atPath: folder + "/keychain.db"), "a live runner's folder stays")
        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        AbandonedFolders.remove(in: directory.path, prefixes: [RunBundle.unpackPrefix])
        #expect(!FileManager.default.fileExists(atPath: folder), "its owner ended: the folder goes")
    }

    @Test("a folder this process holds stays through a sweep; released, it goes")
    func liveOwnerHere() throws {
        let directory = try TemporaryDirectory("owned")
        let folder = directory.file("upgrade-runner-devices-1-here")
        try #require(throws: Never.self) { try OwnedFolder.create(folder) }
        AbandonedFolders.remove(in: directory.path, prefixes: ["upgrade-runner-devices-"])
        #expect(FileManager.default.fileExists(atPath: folder))
        OwnedFolder.release(folder)
        AbandonedFolders.remove(in: directory.path, prefixes: ["upgrade-runner-devices-"])
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test(
        "a dead owner's folder goes; look-alike folders without the proof stay",
        arguments: [
            "no marker", "marker is a link", "marker is a folder", "foreign marker", "dead owner",
        ])
    func lookAlikes(_ kind: String) throws {
        let directory = try TemporaryDirectory("owned")
        // A dead pid, which the old sweep took as proof enough.
        let finished = try Process.run(URL(fileURLWithPath: "/bin/true"), arguments: [])
        finished.waitUntilExit()
        let folder = directory.file(RunBundle.unpackPrefix + "\(finished.processIdentifier)-my-notes")
        let marker = folder + "/" + OwnedFolder.markerName
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "notes".write(toFile: folder + "/notes.txt", atomically: false, encoding: .utf8)
        switch kind {
        case "no marker": break
        case "marker is a link":
            let real = directory.file("real-marker")
            try (OwnedFolder.identity + "\n").write(toFile: real, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: marker, withDestinationPath: real)
        case "marker is a folder": try FileManager.default.createDirectory(atPath: marker, withIntermediateDirectories: false)
        case "foreign marker": try "someone else's\n".write(toFile: marker, atomically: false, encoding: .utf8)
        default:
            try FileManager.default.removeItem(atPath: folder)
            try abandoned(folder)
        }
        AbandonedFolders.remove(in: directory.path, prefixes: [RunBundle.unpackPrefix, "upgrade-runner-devices-"])
        #expect(FileManager.default.fileExists(atPath: folder) == (kind != "dead owner"), "\(kind)")
    }

    @Test("a held folder removed by another process reads as vanished; one never held does not")
    func vanished() throws {
        let directory = try TemporaryDirectory("owned")
        let folder = directory.file("upgrade-runner-devices-1-v")
        try #require(throws: Never.self) { try OwnedFolder.create(folder) }
        defer { OwnedFolder.release(folder) }
        #expect(!OwnedFolder.vanished(folder))
        try FileManager.default.removeItem(atPath: folder)
        #expect(OwnedFolder.vanished(folder))
        // Made again under the same name by someone else: still not ours.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try (OwnedFolder.identity + "\n").write(toFile: folder + "/" + OwnedFolder.markerName, atomically: false, encoding: .utf8)
        #expect(OwnedFolder.vanished(folder))
        #expect(!OwnedFolder.vanished(directory.file("never-held")))
    }

    /// A runner killed between making a folder and writing its marker left a folder no sweep could
    /// prove (an empty marker, or none): CI's kill right after the plan line found one in 1 of 20
    /// kills. A folder is now made under a hidden name and moves into place holding its whole marker.
    @Test("a folder appears with its whole marker and nothing beside it; what a killed creation leaves, a sweep takes")
    func creationLeavesNothingUnprovable() throws {
        let directory = try TemporaryDirectory("owned")
        let folder = directory.file("upgrade-runner-devices-1-made")
        try #require(throws: Never.self) { try OwnedFolder.create(folder) }
        let marker = try String(contentsOfFile: folder + "/" + OwnedFolder.markerName, encoding: .utf8)
        #expect(marker.hasPrefix(OwnedFolder.identity + "\n") && marker.count == OwnedFolder.identity.count + 34)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["upgrade-runner-devices-1-made"])
        #expect(throws: OwnedFolder.Failure.self) { try OwnedFolder.create(folder) }
        OwnedFolder.release(folder)

        // Killed after the hidden folder was made: empty. Killed after the marker was linked in: a
        // whole marker, its lock free. A foreign hidden folder with something in it stays.
        let empty = directory.file(OwnedFolder.stagingPrefix + "upgrade-runner-devices-2-empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let marked = directory.file(OwnedFolder.stagingPrefix + "upgrade-runner-devices-3-marked")
        try #require(throws: Never.self) { try OwnedFolder.create(marked) }
        OwnedFolder.release(marked)
        let foreign = directory.file(OwnedFolder.stagingPrefix + "upgrade-runner-devices-4-notes")
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: false)
        try "notes".write(toFile: foreign + "/notes.txt", atomically: false, encoding: .utf8)
        let unrelated = directory.file(OwnedFolder.stagingPrefix + "something-else")
        try FileManager.default.createDirectory(atPath: unrelated, withIntermediateDirectories: false)
        AbandonedFolders.remove(in: directory.path, prefixes: ["upgrade-runner-devices-"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                OwnedFolder.stagingPrefix + "something-else", OwnedFolder.stagingPrefix + "upgrade-runner-devices-4-notes",
            ])
    }

    @Test("a marker file has a name only once it is whole and locked; an existing name and a gone folder are told apart")
    func wholeLockedFile() throws {
        let directory = try TemporaryDirectory("owned")
        // `create` links an unnamed file in; `inPlace`, where unnamed files cannot be made, writes it
        // under its name. Either is whole and locked by the time the call returns.
        let makers: [(name: String, make: (String, [UInt8], mode_t) -> WholeLockedFile.Outcome)] = [
            ("marker", WholeLockedFile.create), ("in-place", WholeLockedFile.inPlace),
        ]
        for (name, make) in makers {
            let path = directory.file(name)
            guard case .made(let descriptor) = make(path, Array("line\n".utf8), 0o600) else {
                Issue.record("\(name): not made")
                continue
            }
            defer { close(descriptor) }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "line\n")
            let other = open(path, O_RDONLY | O_CLOEXEC)
            defer { close(other) }
            #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "\(name): the lock is held from the moment it has a name")
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o077 == 0 && info.st_nlink == 1, "\(name)")
            guard case .exists = make(path, [], 0o600) else {
                Issue.record("\(name): an existing name is not replaced")
                continue
            }
            guard case .folderGone = make(directory.file("gone/" + name), [], 0o600) else {
                Issue.record("\(name): a missing folder")
                continue
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in-place", "marker"])
    }

    @Test("a tombstone left at a removed folder's path stays while its runner lives and goes after; a look-alike file stays")
    func tombstones() throws {
        let directory = try TemporaryDirectory("owned")
        let path = directory.file("upgrade-runner-devices-6-tomb")
        let descriptor = try #require(OwnedFolder.tombstone(path))
        #expect(OwnedFolder.tombstone(path) == nil, "the path is taken")
        let foreign = directory.file("upgrade-runner-devices-7-notes")
        try "notes\n".write(toFile: foreign, atomically: false, encoding: .utf8)
        AbandonedFolders.remove(in: directory.path, prefixes: ["upgrade-runner-devices-"])
        #expect(FileManager.default.fileExists(atPath: path), "its runner still holds it")
        close(descriptor)
        AbandonedFolders.remove(in: directory.path, prefixes: ["upgrade-runner-devices-"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["upgrade-runner-devices-7-notes"])
    }
}
