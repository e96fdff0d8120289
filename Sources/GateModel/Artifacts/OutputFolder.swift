import FileUtility
import Foundation

/// The output-folder guard: a run writes only into a new or empty folder or one that holds a
/// finished or dead run of this tool (which it replaces, as the default folder is replaced); a
/// folder another live run is writing is refused naming its pid, and a folder with files that are
/// not a run's is refused unless `--force`.
///
/// Only the runner's own files are ever replaced or removed (issues 29 and 37):
/// - A finished run lists every file it wrote in its manifest (``RunManifest``); a rerun removes
///   only those, and a file under the run's entries that it does not list (a person's note in
///   `paths/` or `inputs/builds/`) is foreign: refused without `--force`, left in place with it.
/// - A folder is a run's by its in-progress marker, a regular file (opened with `O_NOFOLLOW`, one
///   link) whose first line is ``identity``, or by a finished gate.json; a name alone is nothing.
/// - Of a run's folder, an entry is removed only where it has the exact shape the runner writes
///   (``ownedEntry(_:in:)``): a user's `replay/` or a link named `paths` is not the runner's.
/// - An entry a run would write that is not the runner's (a user's `inputs/` in a folder that is
///   not a run's, a link named `run.json`) is refused even with `--force`: writing the run beside it
///   would replace it or write through it.
/// - Nothing is followed: links are neither written through nor descended into when removing.
///
/// Live is told from dead by an OS lock: the run holds a `flock` on the in-progress marker from
/// ``prepare(_:force:)`` until ``GateArtifacts/write(report:inputs:to:)`` removes it, and the
/// kernel drops the lock when the process ends however it ends.
package enum OutputFolder {
    /// The names a run writes at the top of its output folder (and `replay`, the folder a replay
    /// of it writes, which a new run makes stale).
    static let runEntries: Set<String> = [
        GateArtifacts.runFile, GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile,
        GateArtifacts.inProgressMarker, ArtifactLayout.paths, ArtifactLayout.timingsFile, ArtifactLayout.replayFolder,
        ArchivedInputs.folderName, ArtifactLayout.baseline, ArtifactLayout.manifestFile,
    ]

    /// The marker's first line: the runner's identity. A marker that does not start with it (or
    /// with ``legacyIdentity``, what earlier versions wrote) is not this tool's.
    static let identity = "upgrade-runner run in progress"
    /// The first line of a marker written before ``identity``.
    static let legacyIdentity = "in progress"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var held: [String: Int32] = [:]
    // Files inside a run's entries that a --force run found and left: never listed as its own.
    nonisolated(unsafe) private static var foreignKept: [String: Set<String>] = [:]

    /// Creates `folder` or checks that it may be written, and takes its in-progress lock.
    ///
    /// With `force`, files that are not a run's are left in place (the leak scan reads them too).
    /// - Throws: ``GateError/outputFolderInUse(folder:reason:)``, one line naming the folder and,
    ///   where the advice works, `--force`.
    static func prepare(_ folder: String, force: Bool) throws(GateError) {
        try create(folder)
        // Before the marker is made: a finished run is one with a final gate.json and no marker.
        let finished = GateArtifacts.isFinished(folder)
        let marker = folder + "/" + GateArtifacts.inProgressMarker
        let (descriptor, markerExisted) = try openMarker(marker, in: folder)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = readPID(descriptor)
            close(descriptor)
            throw .outputFolderInUse(
                folder: folder, reason: "is being written by a live run (pid \(holder.map(String.init) ?? "unknown"))")
        }
        do {
            if markerExisted, !hasIdentity(descriptor) {
                throw GateError.outputFolderInUse(
                    folder: folder,
                    reason:
                        "holds a \(GateArtifacts.inProgressMarker) that this tool did not write; remove it or choose another folder"
                )
            }
            try clear(folder, isRun: markerExisted || finished, force: force)
            let text = Array("\(identity)\npid \(getpid())\n".utf8)
            guard ftruncate(descriptor, 0) == 0,
                text.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, $0.count, 0) }) == text.count
            else { throw GateError.io(path: marker, doing: "writing", cause: FileFailure.posix(errno)) }
        } catch {
            close(descriptor)
            if !markerExisted { unlink(marker) }
            throw error as! GateError
        }
        lock.withLock {
            if let earlier = held.updateValue(descriptor, forKey: folder) { close(earlier) }
        }
    }

    /// Creates `folder` (and the folders above it); a path that cannot be a folder is the user's
    /// input, exit 2, said in words (`/dev/null is not a folder`), not the machine's.
    package static func create(_ folder: String) throws(GateError) {
        var info = stat()
        if stat(folder, &info) == 0, info.st_mode & S_IFMT != S_IFDIR {
            throw .outputFolderInUse(folder: folder, reason: "is a file, not a folder")
        }
        do { try GateArtifacts.createFolder(folder) } catch {
            // The first component that exists and is not a folder is what the user should look at.
            var above = (folder as NSString).deletingLastPathComponent
            while !above.isEmpty, above != "/" {
                if stat(above, &info) == 0 {
                    if info.st_mode & S_IFMT != S_IFDIR {
                        throw .outputFolderInUse(folder: folder, reason: "cannot be created: \(above) is not a folder")
                    }
                    break
                }
                above = (above as NSString).deletingLastPathComponent
            }
            // A read-only or full file system stays the machine's failure (exit 3, the words of the cause).
            throw error
        }
    }

    /// Opens (creating it when missing) the marker without following a link, and checks it is a
    /// regular file of one link: a planted symbolic or hard link is never truncated through.
    private static func openMarker(_ marker: String, in folder: String) throws(GateError) -> (Int32, existed: Bool) {
        let flags = O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        var existed = false
        var descriptor: Int32 = -1
        // A new marker appears holding the identity line and locked (``WholeLockedFile``): a run
        // killed as it made one leaves none, never an empty one that a rerun must refuse as foreign.
        switch WholeLockedFile.create(marker, bytes: Array("\(identity)\npid \(getpid())\n".utf8), mode: 0o644) {
        case .made(let made): descriptor = made
        case .exists: errno = EEXIST
        case .folderGone: errno = ENOENT
        case .failed(let failure): errno = failure
        }
        if descriptor < 0, errno == EEXIST {
            existed = true
            descriptor = open(marker, flags)
        }
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ELOOP || failure == EISDIR || failure == ENXIO {
                throw .outputFolderInUse(
                    folder: folder,
                    reason:
                        "holds \(GateArtifacts.inProgressMarker) that is not a file this tool wrote (a link or a folder); remove it or choose another folder"
                )
            }
            throw .io(path: marker, doing: "creating", cause: FileFailure.posix(failure))
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_nlink == 1 else {
            close(descriptor)
            throw .outputFolderInUse(
                folder: folder,
                reason:
                    "holds \(GateArtifacts.inProgressMarker) that is not a file this tool wrote (a link or a folder); remove it or choose another folder"
            )
        }
        return (descriptor, existed)
    }

    /// Whether the marker's first line is the runner's identity.
    private static func hasIdentity(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        let first = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)[0]
        return first == identity || first == legacyIdentity
    }

    /// Removes the earlier run's entries of `folder` and checks what stays.
    private static func clear(_ folder: String, isRun: Bool, force: Bool) throws(GateError) {
        let entries: [String]
        do { entries = try FileManager.default.contentsOfDirectory(atPath: folder).sorted() } catch {
            throw GateError.io(error, "listing", folder)
        }
        var owned: [String] = []
        var others: [String] = []
        var clashes: [String] = []
        // A finished run's manifest: what it wrote, file by file (``RunManifest``). Without one (a
        // killed run, or one of a version before manifests) an entry of the runner's shape goes whole.
        let listed = isRun ? RunManifest.read(folder) : nil
        var ownFiles: [String] = []
        var foreignFiles: [String] = []
        var walked: [String] = []
        for entry in entries where entry != GateArtifacts.inProgressMarker {
            if isRun, ownedEntry(entry, in: folder) {
                if let listed, RunManifest.written.contains(entry) {
                    RunManifest.sort(entry, in: folder, listed: listed, prefix: "", own: &ownFiles, foreign: &foreignFiles)
                    walked.append(entry)
                } else if entry != ArtifactLayout.manifestFile,
                    entry == ArtifactLayout.replayFolder || entry.hasPrefix(ArtifactLayout.rerunPrefix),
                    let nested = RunManifest.read(folder + "/" + entry)
                {
                    sortNested(entry, in: folder, listed: nested, own: &ownFiles, foreign: &foreignFiles)
                    walked.append(entry)
                } else {
                    owned.append(entry)
                }
            } else if runEntries.contains(entry) && entry != ArtifactLayout.replayFolder
                || entry.hasPrefix(ArtifactFile.temporaryPrefix)
            {
                clashes.append(entry)
            } else {
                others.append(entry)
            }
        }
        if let clash = clashes.first {
            throw GateError.outputFolderInUse(
                folder: folder,
                reason: "holds \(clash), which this tool did not write and a run would replace; move it or choose another folder")
        }
        let foreign = others + foreignFiles
        if !foreign.isEmpty && !force {
            let what = foreign.count == 1 ? foreign[0] : "\(foreign[0]) and \(foreign.count - 1) more"
            throw GateError.outputFolderInUse(
                folder: folder,
                reason: "holds files that are not a run's (\(what)); pass --force to write the run beside them")
        }
        for entry in owned {
            let path = folder + "/" + entry
            let failure = removeTree(path)
            guard failure == 0 else {
                throw GateError.io(path: path, doing: "removing the earlier run's file", cause: FileFailure.posix(failure))
            }
        }
        for file in ownFiles {
            let path = folder + "/" + file
            guard unlink(path) == 0 || errno == ENOENT else {
                throw GateError.io(path: path, doing: "removing the earlier run's file", cause: FileFailure.posix(errno))
            }
        }
        // The folders the earlier run's files left empty; a folder holding a kept file stays.
        for entry in walked { removeEmptyFolders(folder + "/" + entry) }
        lock.withLock { foreignKept[folder] = Set(foreignFiles) }
    }

    /// Sorts the files of a run folder nested in this one (`replay/`, `rerun-*/`) by its own manifest.
    private static func sortNested(
        _ entry: String, in folder: String, listed: Set<String>, own: inout [String], foreign: inout [String]
    ) {
        let nested = folder + "/" + entry
        for inner in ((try? FileManager.default.contentsOfDirectory(atPath: nested)) ?? []).sorted() {
            var info = stat()
            let regular = lstat(nested + "/" + inner, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            if (inner == ArtifactLayout.manifestFile || inner == GateArtifacts.inProgressMarker) && regular {
                own.append(entry + "/" + inner)
            } else if RunManifest.written.contains(inner) {
                RunManifest.sort(inner, in: nested, listed: listed, prefix: entry + "/", own: &own, foreign: &foreign)
            } else {
                var files: [String] = []
                RunManifest.collect(nested, relative: inner, into: &files)
                foreign += files.map { entry + "/" + $0 }
            }
        }
    }

    /// Removes the empty folders under `path` and `path` itself when it ends empty; never follows a link.
    private static func removeEmptyFolders(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { removeEmptyFolders(path + "/" + name) }
        rmdir(path)
    }

    /// Whether `name` at the top of a run's folder has the exact shape the runner writes there: its
    /// documents and in-flight writes as regular files, `paths/` and `baseline/` as folders,
    /// `inputs/` as a folder of `builds/` and `executables/` alone, `replay/` (an earlier version's
    /// replay) and `rerun-*/` as folders that are themselves a run's. A link is never the runner's.
    static func ownedEntry(_ name: String, in folder: String) -> Bool {
        let path = folder + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        switch name {
        case GateArtifacts.runFile, GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile,
            ArtifactLayout.timingsFile, ArtifactLayout.manifestFile:
            return kind == S_IFREG
        case ArtifactLayout.paths, ArtifactLayout.baseline:
            return kind == S_IFDIR
        case ArchivedInputs.folderName:
            guard kind == S_IFDIR, let inside = try? FileManager.default.contentsOfDirectory(atPath: path) else { return false }
            return Set(inside).isSubset(of: ["builds", "executables"])
        case ArtifactLayout.replayFolder:
            return isRunFolder(path)
        case _ where name.hasPrefix(ArtifactLayout.rerunPrefix):
            // summary.md's rerun lines write `rerun-<path>-<scenario>/` inside the run: a run's folder too.
            return isRunFolder(path)
        default:
            return name.hasPrefix(ArtifactFile.temporaryPrefix) && kind == S_IFREG
        }
    }

    /// Whether `path` is a folder (not a link) a run wrote: it holds a regular in-progress marker
    /// or a finished gate.json.
    package static func isRunFolder(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
        var marker = stat()
        return (lstat(path + "/" + GateArtifacts.inProgressMarker, &marker) == 0 && marker.st_mode & S_IFMT == S_IFREG)
            || GateArtifacts.isFinished(path)
    }

    /// `rm -r` that never follows a link (``TreeRemoval``): a link is unlinked, a folder emptied
    /// through its descriptors. 0 (also for nothing there), or the errno of the first failure.
    package static func removeTree(_ path: String) -> Int32 {
        let failure = TreeRemoval.remove(path)
        return failure == ENOENT && access(path, F_OK) != 0 ? 0 : failure
    }

    /// Removes the in-progress marker and drops the lock: the run in `folder` is finished.
    static func finish(_ folder: String) throws(GateError) {
        try RunManifest.write(folder, excluding: lock.withLock { foreignKept.removeValue(forKey: folder) ?? [] })
        let marker = (folder as NSString).appendingPathComponent(GateArtifacts.inProgressMarker)
        if unlink(marker) != 0, errno != ENOENT {
            throw .io(path: marker, doing: "removing the in-progress marker", cause: FileFailure.posix(errno))
        }
        lock.withLock {
            if let descriptor = held.removeValue(forKey: folder) { close(descriptor) }
        }
    }

    /// Drops the lock of a run in `folder` that ended with an error; the marker stays, so the folder
    /// reads as an interrupted run.
    package static func release(_ folder: String) {
        lock.withLock {
            foreignKept.removeValue(forKey: folder)
            if let descriptor = held.removeValue(forKey: folder) { close(descriptor) }
        }
    }

    /// The pid a live run wrote into the marker (`pid N` on its second line).
    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        return text.split(separator: "\n").lazy.compactMap { line in
            line.hasPrefix("pid ") ? Int32(line.dropFirst(4)) : nil
        }.first
    }

    /// Refuses an output folder equal to or inside one of `inputs` (a name for the message, and the
    /// folder): a run writing into its builds folder or its products folder replaces its own inputs.
    /// - Throws: ``GateError/outputFolderInUse(folder:reason:)`` naming both folders (exit 2).
    package static func checkOutside(_ folder: String, inputs: [(name: String, folder: String)]) throws(GateError) {
        let out = resolved(folder)
        for (name, input) in inputs {
            let inside = resolved(input)
            if out == inside || out.hasPrefix(inside.hasSuffix("/") ? inside : inside + "/") {
                throw .outputFolderInUse(folder: folder, reason: "is inside \(name) \(input); choose a folder outside it")
            }
        }
    }

    /// `path` standardized, with its longest existing prefix's links resolved.
    private static func resolved(_ path: String) -> String {
        var head = (path as NSString).standardizingPath
        var tail: [String] = []
        while !head.isEmpty, head != "/" {
            if let real = realpath(head, nil) {
                defer { free(real) }
                return ([String(cString: real)] + tail.reversed()).joined(separator: "/")
            }
            tail.append((head as NSString).lastPathComponent)
            head = (head as NSString).deletingLastPathComponent
        }
        return "/" + tail.reversed().joined(separator: "/")
    }
}
