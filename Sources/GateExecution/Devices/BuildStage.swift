import FileUtility
import Foundation
import GateModel
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
package final class BuildStage: @unchecked Sendable {
    /// The folder the copies are in (under a run's devices folder, or a folder of its own).
    let folder: String
    private let lock = NSLock()
    /// Source path to the copy, with the source's state when it was copied.
    private var copies: [String: (copy: String, state: FileIdentity)] = [:]
    /// How many copies have been begun (each goes into a folder of its own).
    private var made = 0

    init(folder: String) { self.folder = folder }

    /// The folder the stage is in, with a trailing slash, as ``TemporaryDevices/parent(needing:environment:)``
    /// answers: where the devices of the runs it serves go, so that their installs link its copies.
    var parent: String { (folder as NSString).deletingLastPathComponent + "/" }

    /// A stage of its own beside the runs' device folders, registered with ``TemporaryDevices`` so
    /// that an interrupt or the next start removes it too.
    static func shared(needing bytes: Int) throws(GateError) -> BuildStage {
        try TemporaryDevices.checkScratch()
        let folder =
            TemporaryDevices.parent(needing: bytes) + TemporaryDevices.prefix + "\(getpid())-stage-\(UUID().uuidString)"
        try TemporaryDevices.create(folder)
        return BuildStage(folder: folder)
    }

    /// The size of the builds' executables, as much as a stage of them needs.
    static func bytes(of builds: some Sequence<Build>) -> Int {
        builds.reduce(0) { total, build in
            // Each app extension's executable too, unless it is the app's own file.
            let paths = [build.executablePath] + build.extensions.map(\.executablePath).filter { $0 != build.executablePath }
            return total
                + paths.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
        }
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
        // A stage on another file system than `root` (placed for the whole command) would be
        // copied across at every install: then this run stages into its own folder instead.
        var stageInfo = stat()
        if folder != root, stat(folder, &stageInfo) != 0 || stageInfo.st_dev != rootInfo.st_dev {
            return try BuildStage(folder: root).staged(builds, for: root)
        }
        func elsewhere(_ path: String) -> Bool {
            var info = stat()
            return stat(path, &info) == 0 && info.st_dev != rootInfo.st_dev
        }
        // Each build's executable, and each app extension's (an install links it into the extension's
        // bundle as it does the app's): one copy of each file, the first build's in id order naming it.
        var sources: [(path: String, id: String)] = []
        for id in builds.keys.sorted() {
            let build = builds[id]!
            for path in [build.executablePath] + build.extensions.map(\.executablePath)
            where elsewhere(path) && !sources.contains(where: { $0.path == path }) {
                sources.append((path, id))
            }
        }
        // Copied side by side (each is about 80 MB); the error thrown is the first build's in id order.
        let copies = try Slots.map(sources) { source throws(GateError) in try self.copy(of: source.path, build: source.id) }
        let copyOf = Dictionary(uniqueKeysWithValues: zip(sources.map(\.path), copies))
        var staged = builds
        for id in builds.keys {
            if let copy = copyOf[builds[id]!.executablePath] { staged[id]!.executablePath = copy }
            for index in staged[id]!.extensions.indices {
                if let copy = copyOf[staged[id]!.extensions[index].executablePath] {
                    staged[id]!.extensions[index].executablePath = copy
                }
            }
        }
        return staged
    }

    /// The copy of `source`, made now unless one of it in its present state is here already.
    private func copy(of source: String, build id: String) throws(GateError) -> String {
        guard let state = FileIdentity(path: source) else {
            throw .io(path: source, doing: "staging build \(id)'s executable", cause: FileFailure.posix(errno))
        }
        let into: String
        do {
            lock.lock()
            defer { lock.unlock() }
            if let known = self.copies[source], known.state == state { return known.copy }
            into = folder + "/builds/\(made)-" + id
            made += 1
        }
        let copy = into + "/" + (source as NSString).lastPathComponent
        // No intermediate folders and owner-only modes: a stage that an interrupt renamed away
        // mid-copy is not made again under its old name.
        let builds = folder + "/builds"
        guard mkdir(builds, 0o700) == 0 || errno == EEXIST, mkdir(into, 0o700) == 0,
            SHA256.copyFile(from: source, to: copy) != nil
        else {
            throw .io(path: copy, doing: "staging build \(id)'s executable", cause: FileFailure.posix(errno))
        }
        lock.withLock { self.copies[source] = (copy, state) }
        return copy
    }
}
