import Foundation
import SimDevice
import SimRuntime

/// Build executables copied onto the devices' file system, for every run of one command.
///
/// Installs hard-link an executable into the app's bundle; across file systems an install would
/// copy it instead, about 80 MB each time. When the devices live on another file system than the
/// products (a memory file system, ``TemporaryDevices/parent(needing:environment:)``), each
/// executable is copied here once, in the kernel, taking the digest the pin just computed, and
/// every install links the copy. A gate stages into its own run folder; `mutants`, whose dozens of
/// gates install the same released builds, shares one stage across them.
final class BuildStage: @unchecked Sendable {
    /// The folder the copies are in (under a run's devices folder, or a folder of its own).
    let folder: String
    private let lock = NSLock()
    /// Source path to the copy, with the source's state when it was copied.
    private var copies: [String: (copy: String, state: FileState)] = [:]

    init(folder: String) { self.folder = folder }

    /// A stage of its own beside the runs' device folders, registered with ``TemporaryDevices`` so
    /// that an interrupt or the next start removes it too.
    static func shared(needing bytes: Int) throws(GateError) -> BuildStage {
        let folder =
            TemporaryDevices.parent(needing: bytes) + TemporaryDevices.prefix + "\(getpid())-stage-\(UUID().uuidString)"
        try TemporaryDevices.create(folder)
        return BuildStage(folder: folder)
    }

    /// Removes a stage made by ``shared(needing:)``.
    func remove() { TemporaryDevices.remove(folder) }

    /// The builds as devices under `root` install them: each executable on another file system
    /// than `root` replaced by its copy here (made at the first call that needs it).
    func staged(_ builds: [String: Build], for root: String) throws(GateError) -> [String: Build] {
        var rootInfo = stat()
        guard stat(root, &rootInfo) == 0 else {
            throw .io(path: root, doing: "reading the temporary devices folder", cause: FileFailure.posix(errno))
        }
        var staged = builds
        for id in builds.keys.sorted() {
            let source = builds[id]!.executablePath
            var info = stat()
            guard stat(source, &info) == 0, info.st_dev != rootInfo.st_dev else { continue }
            staged[id]!.executablePath = try copy(of: source, build: id, state: FileState(info))
        }
        return staged
    }

    /// The copy of `source`, made now unless one of it in this state is here already.
    private func copy(of source: String, build id: String, state: FileState) throws(GateError) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let known = copies[source], known.state == state { return known.copy }
        let into = folder + "/builds/\(copies.count)-" + id
        let copy = into + "/" + (source as NSString).lastPathComponent
        guard (try? FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)) != nil,
            SHA256.copyFile(from: source, to: copy) != nil
        else {
            throw .io(path: copy, doing: "staging build \(id)'s executable", cause: FileFailure.posix(errno))
        }
        copies[source] = (copy, state)
        return copy
    }

    /// What a copy must still match: the source's identity, size and modification time.
    private struct FileState: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
        }
    }
}
