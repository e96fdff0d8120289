import Foundation

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
    /// `run.json`: the inputs.
    public static let runFile = "run.json"
    /// `gate.json`: the verdict.
    public static let gateFile = "gate.json"
    /// `junit.xml`: one test case per path and scenario.
    public static let junitFile = "junit.xml"
    /// `summary.md`: a table for people.
    public static let summaryFile = "summary.md"
    /// Present while a run writes into the folder; removed after the final gate.json is in place.
    public static let inProgressMarker = ".upgrade-runner-in-progress"
    /// The reason a placeholder report gives.
    public static let unfinishedReason =
        "the run has not finished: it is still running, or was interrupted (SIGINT, SIGTERM or a crash)"

    /// Prepares `folder` for a run of `inputs`: guards it (see ``OutputFolder/prepare(_:force:)``),
    /// drops the in-progress marker and writes run.json and UNKNOWN placeholders of the other files.
    /// - Returns: the plan of `inputs`.
    /// - Throws: ``GateError`` when the folder is in use, the inputs plan nothing, or a file cannot be written.
    @discardableResult
    public static func begin(inputs: RunInputs, at folder: String, force: Bool) throws(GateError) -> GatePlan {
        let plan = try inputs.plan()
        try OutputFolder.prepare(folder, force: force)
        try writeFile(Data("in progress\n".utf8), to: folder, name: inProgressMarker)
        try writeFile(GateJSON.pretty(inputs), to: folder, name: runFile)
        let placeholder = GateEngine.evaluate(
            expected: plan.expectedCells(in: inputs.shard), findings: [], incomplete: [unfinishedReason])
        try writeVerdict(report: placeholder, inputs: inputs, to: folder, finished: false)
        return plan
    }

    /// Writes the final run.json, junit.xml, summary.md and gate.json into `folder`, each atomically
    /// and gate.json last, then removes the in-progress marker.
    /// - Throws: ``GateError/unwritable(path:reason:)`` naming the file.
    public static func write(report: GateReport, inputs: RunInputs, to folder: String) throws(GateError) {
        try createFolder(folder)
        try writeFile(GateJSON.pretty(inputs), to: folder, name: runFile)
        try writeVerdict(report: report, inputs: inputs, to: folder, finished: true)
        let marker = (folder as NSString).appendingPathComponent(inProgressMarker)
        if FileManager.default.fileExists(atPath: marker) {
            do { try FileManager.default.removeItem(atPath: marker) } catch {
                throw .unwritable(path: marker, reason: "cannot remove the in-progress marker")
            }
        }
    }

    /// The bytes of gate.json for `report` on `inputs`.
    public static func gateJSON(report: GateReport, inputs: RunInputs, finished: Bool = true) -> Data {
        GateJSON.pretty(GateDocument(report: report, inputs: inputs, finished: finished))
    }

    /// The text of junit.xml for `report` on `inputs`.
    public static func junitXML(report: GateReport, inputs: RunInputs) -> String {
        JUnitWriter.render(report: report, inputs: inputs)
    }

    /// The text of summary.md for `report` on `inputs`.
    public static func summaryMarkdown(report: GateReport, inputs: RunInputs) -> String {
        SummaryWriter.render(report: report, inputs: inputs)
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
        try writeFile(Data(summaryMarkdown(report: report, inputs: inputs).utf8), to: folder, name: summaryFile)
        try writeFile(gateJSON(report: report, inputs: inputs, finished: finished), to: folder, name: gateFile)
    }

    static func createFolder(_ folder: String) throws(GateError) {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw .unwritable(path: folder, reason: "cannot create the folder")
        }
    }

    /// Writes `data` to a temporary file beside the target and renames it over the target.
    static func writeFile(_ data: Data, to folder: String, name: String) throws(GateError) {
        let path = (folder as NSString).appendingPathComponent(name)
        do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw .unwritable(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}

/// The output-folder guard: a run writes only into an empty or new folder, or, with `--force`,
/// into one whose earlier run's files it first removes.
public enum OutputFolder {
    /// The names a run writes at the top of its output folder.
    public static let runEntries: Set<String> = [
        GateArtifacts.runFile, GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile,
        GateArtifacts.inProgressMarker, "paths", "timings.json",
    ]

    /// Creates `folder` or checks that it may be written.
    ///
    /// A new or empty folder is fine. A folder holding another run's files (run.json, gate.json, ...)
    /// or any other file is refused unless `force`; with `force`, the earlier run's entries are
    /// removed and other files are left alone (and so are read by the leak scan).
    /// - Throws: ``GateError/outputFolderInUse(folder:reason:)``, one line naming the folder.
    public static func prepare(_ folder: String, force: Bool) throws(GateError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: folder, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw .outputFolderInUse(folder: folder, reason: "is a file, not a folder") }
            let entries: [String]
            do { entries = try manager.contentsOfDirectory(atPath: folder).sorted() } catch {
                throw .unreadable(path: folder, reason: "cannot list the folder")
            }
            let runFiles = entries.filter(runEntries.contains)
            if !force {
                if entries.contains(GateArtifacts.inProgressMarker) {
                    throw .outputFolderInUse(
                        folder: folder,
                        reason: "holds a run in progress or an interrupted one (\(GateArtifacts.inProgressMarker))")
                }
                if !runFiles.isEmpty {
                    throw .outputFolderInUse(
                        folder: folder, reason: "holds another run's files (\(runFiles.joined(separator: ", ")))")
                }
                if let first = entries.first {
                    throw .outputFolderInUse(folder: folder, reason: "is not empty (it holds \(first)) and is not a run's folder")
                }
            }
            for entry in runFiles {
                let path = (folder as NSString).appendingPathComponent(entry)
                do { try manager.removeItem(atPath: path) } catch {
                    throw .unwritable(path: path, reason: "cannot remove the earlier run's file")
                }
            }
        } else {
            try GateArtifacts.createFolder(folder)
        }
    }
}
