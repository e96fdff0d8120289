import FileUtility
import Foundation
import UpgradeContract

/// A run's artifacts and archived inputs in one file (`upgrade-runner bundle DIR -o FILE.tar.gz`),
/// which `replay FILE.tar.gz` accepts: a ustar archive (``USTar``) in a gzip of stored blocks
/// (``StoredGzip``), so `tar xzf` unpacks it too.
///
/// Every member sits under one folder, `run/`: the run's own files (run.json, gate.json, junit.xml,
/// summary.md, timings.json, paths/, inputs/), never a replay of it or files that are not the run's.
/// The bytes depend only on those files: entries sorted by path (byte order), folders 0755, files
/// 0644 or 0755 when executable, owner root (uid and gid 0), one fixed time, no gzip name or time.
package enum RunBundle {
    /// The folder every member sits under.
    static let topFolder = "run"
    /// The top-level names of a run folder a bundle carries.
    static let carried: Set<String> = [
        GateArtifacts.runFile, GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile, ArtifactLayout.timingsFile,
        ArtifactLayout.paths, ArchivedInputs.folderName,
    ]

    /// The bundle of the run in `folder`.
    /// - Throws: ``GateError`` (exit 2) naming the file or folder when it cannot be bundled.
    package static func pack(_ folder: String) throws(GateError) -> Data {
        var entries = [USTar.Entry(path: topFolder, kind: .folder, mode: 0o755, data: Data())]
        let manager = FileManager.default
        let top: [String]
        do { top = try manager.contentsOfDirectory(atPath: folder) } catch { throw .io(error, "listing", folder) }
        for name in top.sorted() where carried.contains(name) {
            try collect(folder, relative: name, into: &entries)
        }
        entries.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        do { return StoredGzip.wrap(try USTar.write(entries)) } catch { throw .malformed(path: folder, reason: error.reason) }
    }

    private static func collect(_ root: String, relative: String, into entries: inout [USTar.Entry]) throws(GateError) {
        let path = root + "/" + relative
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .io(path: path, doing: "reading", cause: FileFailure.posix(errno)) }
        let archived = topFolder + "/" + relative
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            entries.append(USTar.Entry(path: archived, kind: .folder, mode: 0o755, data: Data()))
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch { throw .io(error, "listing", path) }
            for name in names.sorted() { try collect(root, relative: relative + "/" + name, into: &entries) }
        case S_IFREG:
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unreadable(path: path, reason: "cannot be read")
            }
            let mode = info.st_mode & 0o111 != 0 ? 0o755 : 0o644
            entries.append(USTar.Entry(path: archived, kind: .file, mode: mode, data: data))
        default:
            throw .malformed(path: path, reason: "is not a file or a folder (a bundle holds only files and folders)")
        }
    }

    /// Unpacks the bundle `file` into `folder` (which must not exist) and answers the run folder in it.
    /// - Throws: ``GateError/malformed(path:reason:)`` (exit 2) naming `file` when it is truncated,
    ///   damaged, or holds a member outside `run/` or a path that climbs out of it; nothing is written then.
    package static func unpack(_ file: String, into folder: String) throws(GateError) -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw .unreadable(path: file, reason: "cannot be read")
        }
        let entries: [USTar.Entry]
        do {
            entries = try USTar.read(try StoredGzip.unwrap(data))
        } catch let failure as StoredGzip.Failure {
            throw .malformed(path: file, reason: failure.reason)
        } catch let failure as USTar.Failure {
            throw .malformed(path: file, reason: failure.reason)
        } catch {
            throw .malformed(path: file, reason: "cannot be read as a bundle")
        }
        var seen: Set<String> = []
        for entry in entries {
            let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.first == Substring(topFolder), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
                throw .malformed(path: file, reason: "holds \(entry.path), outside the bundle's \(topFolder)/ folder")
            }
            guard seen.insert(entry.path).inserted else { throw .malformed(path: file, reason: "holds \(entry.path) twice") }
        }
        guard seen.contains(topFolder + "/" + GateArtifacts.runFile) else {
            throw .malformed(path: file, reason: "holds no \(topFolder)/\(GateArtifacts.runFile): it is not a run bundle")
        }
        for entry in entries {
            let path = folder + "/" + entry.path
            switch entry.kind {
            case .folder: try ArtifactFile.createFolder(path)
            case .file:
                try ArtifactFile.createFolder((path as NSString).deletingLastPathComponent)
                try ArtifactFile.write(entry.data, to: path)
                if entry.mode & 0o111 != 0 { try ArtifactFile.setMode(0o755, of: path) }
            }
        }
        return folder + "/" + topFolder
    }
}
