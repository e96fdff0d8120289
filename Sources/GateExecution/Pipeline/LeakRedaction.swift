import FileUtility
import Foundation
import GateModel

/// What the gate does with an artifact in which the leak scan found a secret: the file is replaced
/// by a note naming the secrets' labels and encodings (never a value), so that the artifacts folder,
/// which CI uploads and teams share, holds no secret; the raw file goes, readable by this user alone
/// (0600, in 0700 folders), to `<keep-failed>/leaked/<its path under the artifacts folder>` when
/// `--keep-failed` is given, and is removed otherwise. The verdict still FAILs no-secret-in-artifacts
/// (the findings name the file, the label and the encoding).
///
/// The run's own verdict files (run.json, gate.json, junit.xml, summary.md) are written after the
/// scan from findings that hold no value, so they are never redacted.
enum LeakRedaction {
    /// The folder of the raw files, inside the kept folder.
    static let leakedFolder = "leaked"

    /// Replaces every file of `leaks` (relative to `outFolder`) by its note, keeping the raw file in
    /// `kept` when given. A file that cannot be replaced is left as it is: its finding fails the run.
    static func redact(_ leaks: [SecretLeak], in outFolder: String, keep kept: KeptDevices?) {
        let byFile = Dictionary(grouping: leaks, by: \.file)
        for file in byFile.keys.sorted() where !ArchivePins.verdictFiles.contains(file) && file != GateArtifacts.runFile {
            let path = outFolder + "/" + file
            var keptAt: String?
            if let kept {
                let target = kept.folder + "/" + leakedFolder + "/" + file
                let parent = (target as NSString).deletingLastPathComponent
                if (try? ArtifactFile.createFolder(parent)) != nil {
                    var folder = parent
                    while folder.count > kept.folder.count {
                        chmod(folder, 0o700)
                        folder = (folder as NSString).deletingLastPathComponent
                    }
                    // A rename within the file system, else a copy in the kernel (FileCopy).
                    if rename(path, target) == 0 || FileCopy.copy(from: path, to: target) != nil {
                        chmod(target, 0o600)
                        keptAt = target
                    }
                }
            }
            let found = byFile[file]!.map { "secret #\($0.secretIndex) (\($0.secretLabel)) as \($0.encoding.rawValue)" }
            var lines = [
                "upgrade-runner replaced this file: the leak scan found in it " + Set(found).sorted().joined(separator: "; ")
                    + "."
            ]
            lines.append(
                keptAt.map { "The file as it was is kept, readable by its owner alone, at \($0) (--keep-failed)." }
                    ?? "The file as it was is not kept: run again with --keep-failed DIR to keep it, readable by you alone.")
            _ = try? ArtifactFile.write(Data((lines.joined(separator: "\n") + "\n").utf8), to: path, atomically: true)
        }
    }
}
