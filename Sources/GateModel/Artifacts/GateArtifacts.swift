import FileUtility
import Foundation
import UpgradeContract

/// Writes and reads the verdict artifacts of an output folder: run.json, gate.json, junit.xml and
/// summary.md, every one deterministic byte for byte (sorted keys, sorted collections, no clock).
///
/// The fail-closed protocol: ``begin(inputs:at:force:)`` guards the folder, drops an in-progress
/// marker, and writes run.json plus an UNKNOWN gate.json, junit.xml and summary.md ("the run has not
/// finished"). ``write(report:inputs:to:)`` replaces each file atomically (a temporary file renamed
/// over it), gate.json last, and only then removes the marker. A run killed by SIGINT, SIGTERM or a
/// crash at any instant therefore leaves either the UNKNOWN placeholder or the final verdict, never
/// a half-written file and never a PASS it did not earn; readers also treat a folder that still
/// holds the marker, or a gate.json with `"finished": false`, as unfinished.
public enum GateArtifacts {
    /// ``ArtifactLayout/runFile``.
    public static let runFile = ArtifactLayout.runFile
    /// ``ArtifactLayout/gateFile``.
    public static let gateFile = ArtifactLayout.gateFile
    /// ``ArtifactLayout/junitFile``.
    public static let junitFile = ArtifactLayout.junitFile
    /// ``ArtifactLayout/summaryFile``.
    public static let summaryFile = ArtifactLayout.summaryFile
    /// ``ArtifactLayout/inProgressMarker``.
    public static let inProgressMarker = ArtifactLayout.inProgressMarker
    /// The reason a placeholder report gives.
    public static let unfinishedReason =
        "the run has not finished: it is still running, or was interrupted (SIGINT, SIGTERM or a crash)"

    /// Prepares `folder` for a run of `inputs`, whose plan is `plan`: guards it (see
    /// ``OutputFolder/prepare(_:force:)``), drops the in-progress marker and writes run.json and
    /// UNKNOWN placeholders of the other files.
    /// - Throws: ``GateError`` when the folder is in use or a file cannot be written.
    package static func begin(inputs: RunInputs, plan: GatePlan, at folder: String, force: Bool) throws(GateError) {
        try OutputFolder.prepare(folder, force: force)
        // No archive pins yet (a merge's inputs come from a shard's finished run.json): nothing is judged.
        var unpinned = inputs
        unpinned.archivePins = nil
        try writeFile(GateJSON.pretty(unpinned), to: folder, name: runFile)
        let placeholder = GateEngine.evaluate(
            expected: plan.expectedCells(in: inputs.shard), findings: [], incomplete: [unfinishedReason],
            release: inputs.releaseUnderTest)
        try writeVerdict(report: placeholder, inputs: inputs, to: folder, finished: false)
    }

    /// Writes the final run.json (with ``ArchivePins`` of the status files and of the verdict files
    /// to come), junit.xml, summary.md and gate.json into `folder`, each atomically and gate.json
    /// last, then removes the in-progress marker.
    /// - Throws: ``GateError/io(path:doing:cause:)`` naming the file.
    package static func write(report: GateReport, inputs: RunInputs, to folder: String) throws(GateError) {
        try createFolder(folder)
        let verdict = [
            junitFile: Data(junitXML(report: report, inputs: inputs).utf8),
            // Labels, status values and messages come from apps and files: no raw control character.
            summaryFile: Data(QuotedValue.lines(summaryMarkdown(report: report, inputs: inputs, out: folder)).utf8),
            gateFile: gateJSON(report: report, inputs: inputs, finished: true),
        ]
        var pinned = inputs
        pinned.archivePins = try ArchivePins.of(folder, verdict: verdict)
        try writeFile(GateJSON.pretty(pinned), to: folder, name: runFile)
        for name in ArchivePins.verdictFiles.reversed() { try writeFile(verdict[name]!, to: folder, name: name) }
        try OutputFolder.finish(folder)
    }

    /// The bytes of gate.json for `report` on `inputs`.
    static func gateJSON(report: GateReport, inputs: RunInputs, finished: Bool = true) -> Data {
        GateJSON.pretty(GateDocument(report: report, inputs: inputs, finished: finished))
    }

    /// The text of junit.xml for `report` on `inputs`.
    static func junitXML(report: GateReport, inputs: RunInputs) -> String {
        JUnitWriter.render(report: report, inputs: inputs)
    }

    /// The text of summary.md for `report` on `inputs`.
    /// `out`: the run's folder (its rerun lines write under it).
    public static func summaryMarkdown(report: GateReport, inputs: RunInputs, out: String) -> String {
        SummaryWriter.render(report: report, inputs: inputs, out: out)
    }

    /// The verdict table as the command line prints it: summary.md's text without HTML entities.
    public static func summaryText(report: GateReport, inputs: RunInputs, out: String) -> String {
        SummaryWriter.render(report: report, inputs: inputs, out: out, flavor: .terminal)
    }

    /// Whether `folder` holds a finished run: gate.json says finished and no in-progress marker is left.
    public static func isFinished(_ folder: String) -> Bool {
        let marker = (folder as NSString).appendingPathComponent(inProgressMarker)
        guard !FileManager.default.fileExists(atPath: marker),
            let document = try? GateDocument.read(from: (folder as NSString).appendingPathComponent(gateFile))
        else { return false }
        return document.finished
    }

    private static func writeVerdict(report: GateReport, inputs: RunInputs, to folder: String, finished: Bool) throws(GateError) {
        try writeFile(Data(junitXML(report: report, inputs: inputs).utf8), to: folder, name: junitFile)
        try writeFile(
            Data(QuotedValue.lines(summaryMarkdown(report: report, inputs: inputs, out: folder)).utf8), to: folder,
            name: summaryFile)
        try writeFile(gateJSON(report: report, inputs: inputs, finished: finished), to: folder, name: gateFile)
    }

    static func createFolder(_ folder: String) throws(GateError) {
        try ArtifactFile.createFolder(folder)
    }

    /// Writes `data` to a temporary file beside the target and renames it over the target.
    package static func writeFile(_ data: Data, to folder: String, name: String) throws(GateError) {
        try ArtifactFile.write(data, to: (folder as NSString).appendingPathComponent(name), atomically: true)
    }
}

/// Every write into an artifacts folder: a failure is one ``GateError/io(path:doing:cause:)``
/// line naming the file and the cause (`no space left on device writing <file>`), exit code 3.
///
/// An atomic write goes through a temporary file of a name this tool knows
/// (``temporaryPrefix``), renamed over the target: a run killed mid-write leaves at most such a
/// file, which the next run into the folder removes with the rest of the earlier run.
package enum ArtifactFile {
    /// The name start of a write in progress.
    static let temporaryPrefix = ".upgrade-runner-writing-"

    package static func write(_ data: Data, to path: String, atomically: Bool = false) throws(GateError) {
        guard atomically else {
            // A cell's status copies, logs and attempts: written without a sync (Foundation's
            // Data.write syncs every file, a sync per launch); the verdict files below keep theirs.
            let failure = AtomicFile.writeInPlace(data, to: path)
            guard failure == 0 else { throw .io(path: path, doing: "writing", cause: FileFailure.posix(failure)) }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/" + temporaryPrefix + (path as NSString).lastPathComponent + "-\(getpid())"
        do { try data.write(to: URL(fileURLWithPath: temporary)) } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw .io(error, "writing", path)
        }
        guard rename(temporary, path) == 0 else {
            let cause = FileFailure.posix(errno)
            try? FileManager.default.removeItem(atPath: temporary)
            throw .io(path: path, doing: "writing", cause: cause)
        }
    }

    /// Creates `folder` and any folder above it that is missing (none when it exists).
    package static func createFolder(_ folder: String) throws(GateError) {
        let failure = makeFolder(folder)
        guard failure == 0 else { throw .io(path: folder, doing: "creating the folder", cause: FileFailure.posix(failure)) }
    }

    /// `mkdir -p` in POSIX calls: one `mkdir` for a folder whose parent exists, which is what a
    /// cell's and each attempt's folders are (Foundation's `createDirectory` looked at every
    /// component of the path first, for every folder of every attempt). 0, or the errno of the
    /// first `mkdir` that failed.
    private static func makeFolder(_ folder: String) -> Int32 {
        if mkdir(folder, 0o777) == 0 { return 0 }
        var failure = errno
        if isFolder(folder) { return 0 }
        guard failure == ENOENT else { return failure }
        let parent = (folder as NSString).deletingLastPathComponent
        guard !parent.isEmpty, parent != folder else { return failure }
        let above = makeFolder(parent)
        guard above == 0 else { return above }
        if mkdir(folder, 0o777) == 0 { return 0 }
        failure = errno
        return isFolder(folder) ? 0 : failure
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Sets the permission bits of `path` (an archived executable is 0755).
    package static func setMode(_ mode: mode_t, of path: String) throws(GateError) {
        guard chmod(path, mode) == 0 else { throw .io(path: path, doing: "setting the mode of", cause: FileFailure.posix(errno)) }
    }
}
