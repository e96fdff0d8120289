import FileUtility
import Foundation

/// run.json's `archivePins`: the sha256 of every file a replay compares or judges by, written when
/// the run finishes, so that `replay` can refuse an edited archive before it runs anything and
/// "identical" means the new run equals the archive as the run left it.
///
/// Which file pins which: run.json is written twice, at the start (with no pins: nothing is
/// judged yet) and at the end, after the status files and just before junit.xml, summary.md and
/// gate.json, whose bytes are known by then. gate.json records run.json's inputs digest
/// (``RunInputs/digest``), which leaves these pins out, so each of the two files vouches for the
/// other without a cycle: an edit of the pins shows as a pinned file whose digest differs.
public struct ArchivePins: Codable, Equatable, Sendable {
    /// Path relative to the run folder to the lower-case hex SHA-256 of the file: every status file
    /// (``StatusComparison/statusFiles(in:)``), gate.json, junit.xml and summary.md.
    public package(set) var files: [String: String]

    package init(files: [String: String]) { self.files = files }

    /// The verdict files, pinned by their bytes before they are written.
    package static let verdictFiles = [GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile]

    /// The pins of the status files now in `folder` and of the verdict files about to be written with `verdict`'s bytes.
    /// - Throws: ``GateError/unreadable(path:reason:)`` naming a status file that cannot be read.
    package static func of(_ folder: String, verdict: [String: Data]) throws(GateError) -> ArchivePins {
        var files: [String: String] = [:]
        for relative in try StatusComparison.statusFiles(in: folder) {
            files[relative] = try GateHash.hexOfFile(atPath: folder + "/" + relative)
        }
        for (name, data) in verdict { files[name] = GateHash.hex(data) }
        return ArchivePins(files: files)
    }

    /// Refuses, naming the first file in path order, a pinned file that is missing or changed, or a
    /// status file the run did not leave.
    /// - Throws: ``GateError/malformed(path:reason:)`` (exit 2) naming the file in `folder`.
    package func check(_ folder: String) throws(GateError) {
        for relative in files.keys.sorted() {
            let path = folder + "/" + relative
            guard FileManager.default.fileExists(atPath: path) else {
                throw .malformed(path: path, reason: "is missing, but run.json pins it: the archive was changed after the run")
            }
            let found = try GateHash.hexOfFile(atPath: path)
            guard found == files[relative] else {
                throw .malformed(
                    path: path,
                    reason:
                        "has sha256 \(found.prefix(12))… but run.json pins \(files[relative]!.prefix(12))…: the archive was changed after the run"
                )
            }
        }
        for relative in try StatusComparison.statusFiles(in: folder).sorted() where files[relative] == nil {
            throw .malformed(
                path: folder + "/" + relative,
                reason: "is a status file run.json does not pin: the archive was changed after the run")
        }
    }
}
