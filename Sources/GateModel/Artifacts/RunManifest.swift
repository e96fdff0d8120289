import FileUtility
import Foundation

/// What a run wrote into its output folder: every regular file, as a path relative to the folder,
/// in `.upgrade-runner-files` (``ArtifactLayout/manifestFile``), written when the run finishes.
///
/// A rerun into the folder removes only the files its manifest lists; a file under the run's
/// entries that it does not list (a note a person left in `paths/` or `inputs/builds/`) is not the
/// runner's: the rerun is refused naming it, or with `--force` runs beside it and leaves it.
///
/// The first line is ``identity``; each further line one path, sorted by bytes. A path with a line
/// break is never the runner's and is never listed.
package enum RunManifest {
    /// The first line: a manifest without it is not this tool's, and lists nothing.
    static let identity = "upgrade-runner run files v1"
    /// The top-level entries a run writes files under (``OutputFolder/runEntries`` but the marker,
    /// the manifest itself and the folders of other runs: `replay/` and `rerun-*/`).
    static let written: Set<String> = [
        GateArtifacts.runFile, GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile,
        ArtifactLayout.paths, ArtifactLayout.timingsFile, ArchivedInputs.folderName, ArtifactLayout.baseline,
    ]

    /// The files `folder`'s manifest lists, or nil when it has none that is this tool's (a regular
    /// file, opened without following a link, that starts with ``identity``).
    static func read(_ folder: String) -> Set<String>? {
        let descriptor = open(folder + "/" + ArtifactLayout.manifestFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
            let data = try? handle.readToEnd()
        else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.first == identity else { return nil }
        return Set(lines.dropFirst())
    }

    /// Writes `folder`'s manifest: every regular file under ``written`` but those in `excluding`
    /// (files a `--force` run found there and left).
    /// - Throws: ``GateError/io(path:doing:cause:)`` naming the manifest.
    static func write(_ folder: String, excluding: Set<String>) throws(GateError) {
        var files: [String] = []
        for entry in written.sorted() { collect(folder, relative: entry, into: &files) }
        let listed = files.filter { !excluding.contains($0) && !$0.contains("\n") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let text = ([identity] + listed).joined(separator: "\n") + "\n"
        try ArtifactFile.write(Data(text.utf8), to: folder + "/" + ArtifactLayout.manifestFile, atomically: true)
    }

    /// Every path under `relative` in `root` that is not a folder (links included: a link is never
    /// the runner's), depth first; links are not followed.
    static func collect(_ root: String, relative: String, into files: inout [String]) {
        var info = stat()
        guard lstat(root + "/" + relative, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            files.append(relative)
            return
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root + "/" + relative) else { return }
        for name in names.sorted() { collect(root, relative: relative + "/" + name, into: &files) }
    }

    /// Sorts the files under `entry` of the run folder `folder` (whose manifest is `listed`) into the
    /// run's own (listed, regular files) and the rest. `prefix` is prepended to every path answered.
    static func sort(
        _ entry: String, in folder: String, listed: Set<String>, prefix: String, own: inout [String], foreign: inout [String]
    ) {
        var files: [String] = []
        collect(folder, relative: entry, into: &files)
        for file in files {
            var info = stat()
            let regular = lstat(folder + "/" + file, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            if regular && listed.contains(file) { own.append(prefix + file) } else { foreign.append(prefix + file) }
        }
    }
}
