import Foundation
import GateModel
import SimDevice

/// A replay to run: an archived run (its folder, or a bundle `upgrade-runner bundle` made) rerun from
/// its run.json on fresh devices, and compared with the archive. What `replay` reads from the command
/// line, and what a Swift caller gives ``ReleaseGate/replay(_:progress:note:)``.
public struct ReplayRequest: Sendable {
    /// The archive, absolute: an artifacts folder holding run.json and gate.json, or a bundle file.
    public var archive: String
    /// The archive as the caller named it, for messages (default: ``archive``).
    public var archiveName: String
    /// Where the replay writes, absolute; nil: beside the archive (`DIR-replay`, `NAME-replay` for
    /// `NAME.tar.gz`), never inside it.
    public var out: String?
    /// Write into an `out` that also holds files that are not a run's.
    public var force: Bool
    /// Cells run in parallel.
    public var jobs: Int
    /// Seconds before a hanging app launch is killed.
    public var timeout: Double
    /// The builds folder and products, used when the archive holds no `inputs/`.
    public var buildsFolder: String
    public var productsFolder: String

    /// A replay of `archive` with the command line's defaults.
    public init(
        archive: String, archiveName: String? = nil, out: String? = nil, force: Bool = false,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, timeout: Double = 30, buildsFolder: String,
        productsFolder: String
    ) {
        self.archive = archive
        self.archiveName = archiveName ?? archive
        self.out = out
        self.force = force
        self.jobs = jobs
        self.timeout = timeout
        self.buildsFolder = buildsFolder
        self.productsFolder = productsFolder
    }

    /// Whether ``archive`` is a bundle file rather than a folder.
    var isBundle: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: archive, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// Where the replay writes: ``out``, else beside the archive.
    public var replayFolder: String {
        out ?? (isBundle ? Self.bundleReplayFolder(archive) : Self.folderReplayFolder(archive))
    }

    /// Where a folder's replay goes by default: beside it, `/tmp/g` -> `/tmp/g-replay`.
    static func folderReplayFolder(_ folder: String) -> String {
        var base = folder
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base + "-replay"
    }

    /// Where a bundle's replay goes by default: beside it, `run.tar.gz` -> `run-replay`.
    static func bundleReplayFolder(_ bundle: String) -> String {
        var base = bundle
        for suffix in [".tar.gz", ".tgz", ".gz"] where base.hasSuffix(suffix) {
            base.removeLast(suffix.count)
            break
        }
        return base + "-replay"
    }
}

/// What a replay found: the rerun's report, and every status file and cell verdict that differs
/// from the archive's (none: identical).
public struct ReplayOutcome: Sendable {
    /// The replay's artifacts folder.
    public let out: String
    /// The rerun's report.
    public let report: GateReport
    /// What differs, one line each: status files and their JSON fields, cells whose verdict changed.
    public let differences: [String]
    /// Whether every status file and every verdict is the archive's.
    public var identical: Bool { differences.isEmpty }
}

/// A replay that cannot be run as asked: bad input (exit code 2 on the command line), named.
public struct ReplayError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

extension ReleaseGate {
    /// Reruns the archived run `request` names and compares the status files and verdicts.
    ///
    /// Before anything runs it checks what makes the comparison mean something: run.json is the one
    /// gate.json was written for, the status and verdict files are the ones the run pinned, the run
    /// finished and was judged, and every build's executable, entitlements and manifest still has the
    /// archived sha256 (from the archive's `inputs/` when it has them).
    /// - Parameters:
    ///   - progress: each progress line, without its newline.
    ///   - note: each note about the archive (a runner version that differs, a pin an older runner did
    ///     not write), without its newline.
    /// - Throws: ``GateError`` or ``ReplayError`` for bad input, before any cell runs.
    public static func replay(
        _ request: ReplayRequest, progress: (@Sendable (String) -> Void)? = nil, note: (String) -> Void = { _ in }
    ) throws -> ReplayOutcome {
        let reporter =
            progress.map { write in
                GateProgress(style: .lines) { write($0.hasSuffix("\n") ? String($0.dropLast()) : $0) }
            } ?? .silent
        return try request.execute(progress: reporter, note: note)
    }
}

extension ReplayRequest {
    /// Runs the replay with `progress` (the command line's console, or a caller's lines).
    package func execute(progress: GateProgress, note: (String) -> Void) throws -> ReplayOutcome {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        let out = replayFolder
        if ResolvedPath.isSame(out, orInside: archive) || ResolvedPath.isSame(archive, orInside: out) {
            throw ReplayError(
                description: "replay: --out \(out) and the archive \(archiveName) overlap (one is, or is inside, the other); "
                    + "the replay must not write into what it compares")
        }
        let bundle = isBundle
        var folder = archive
        // A bundle is unpacked into a temporary folder, removed when the replay ends (or, when the
        // runner is killed, by the next start: RunBundle.removeAbandonedUnpacks).
        let unpacked = NSTemporaryDirectory() + RunBundle.unpackPrefix + "\(getpid())-\(UUID().uuidString)"
        defer {
            if bundle {
                try? FileManager.default.removeItem(atPath: unpacked)
                TemporaryDevices.forget(unpacked)
                OwnedFolder.release(unpacked)
            }
        }
        // A SIGINT or SIGTERM removes it too (the interrupt's handler removes what is registered).
        if bundle {
            TemporaryDevices.register(unpacked)
            folder = try RunBundle.unpack(archive, into: unpacked)
        }
        let inputs: RunInputs
        let builds: [String: Build]
        let pins: [String: RunInputs.BuildFiles]
        do {
            inputs = try Self.archivedInputs(in: folder)
            try Self.checkArchivePins(inputs, in: folder, naming: bundle ? archiveName : nil, note: note)
            let given = BuildCatalog(folder: buildsFolder, productsFolder: productsFolder)
            let catalog = try Self.catalog(for: inputs, in: folder, else: given)
            builds = try GatePipeline.resolve(inputs.builds, in: catalog)
            pins = try GatePipeline.pin(builds)
            try Self.checkPinned(inputs, against: pins, builds: builds, note: note)
        } catch let error as GateError where bundle {
            throw error.naming(bundle: archiveName, unpackedAt: unpacked)
        }

        var replayInputs = inputs
        if inputs.runnerVersion != UpgradeRunnerVersion.current {
            note("note: archived by runner \(inputs.runnerVersion), replayed by \(UpgradeRunnerVersion.current)")
            replayInputs.runnerVersion = UpgradeRunnerVersion.current
        }
        let (report, _) = try GatePipeline(
            inputs: replayInputs, builds: builds, out: out, settings: RunSettings(jobs: jobs, timeout: timeout, force: force),
            progress: progress, pins: pins
        ).run()
        note("replay: \(out) (verdict \(report.verdict))")
        let comparison = try StatusComparison.compare(
            archived: folder, replay: out, secrets: GatePipeline.secrets(caseID: inputs.caseID, builds: builds.values))
        let verdicts = Self.verdictChanges(
            archived: try GateDocument.read(from: folder + "/" + GateArtifacts.gateFile).report, replay: report)
        let differences = comparison.isIdentical ? [] : comparison.report.filter { $0 != "identical" }
        return ReplayOutcome(out: out, report: report, differences: differences + verdicts)
    }

    /// The cells (path and scenario) whose verdict differs between the archived run and the replay.
    package static func verdictChanges(archived: GateReport, replay: GateReport) -> [String] {
        func cells(_ report: GateReport) -> [String: Verdict] {
            var cells: [String: Verdict] = [:]
            for path in report.paths {
                for scenario in path.scenarios { cells["\(path.path)/\(scenario.scenario)"] = scenario.verdict }
            }
            return cells
        }
        let before = cells(archived), after = cells(replay)
        var lines = Set(before.keys).union(after.keys).sorted().compactMap { cell -> String? in
            guard before[cell] != after[cell] else { return nil }
            return
                "verdict differs: \(cell): archived \(before[cell]?.rawValue ?? "none"), replay \(after[cell]?.rawValue ?? "none")"
        }
        if archived.verdict != replay.verdict {
            lines.append("verdict differs: overall: archived \(archived.verdict.rawValue), replay \(replay.verdict.rawValue)")
        }
        return lines
    }

    /// The inputs of `folder/run.json`, checked against the digest `folder/gate.json` recorded.
    /// - Throws: ``GateError`` naming run.json when it is missing, unparsable or edited, or gate.json when it is missing or malformed.
    package static func archivedInputs(in folder: String) throws(GateError) -> RunInputs {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadable(path: folder, reason: "is not an artifacts folder")
        }
        let runPath = folder + "/" + GateArtifacts.runFile
        let inputs = try RunInputs.read(from: runPath)
        let gatePath = folder + "/" + GateArtifacts.gateFile
        let document = try GateDocument.read(from: gatePath)
        // A run that did not finish archived only some status files, and an UNKNOWN one has cells
        // that were never judged: a replay of either could only print differences that mean nothing.
        if !GateArtifacts.isFinished(folder) {
            throw .malformed(
                path: folder, reason: "holds a run that did not finish (interrupted, or still running): nothing to replay")
        }
        if document.report.verdict == .unknown {
            throw .malformed(
                path: folder,
                reason:
                    "holds a run whose verdict is UNKNOWN (\(GateFinding.oneLine(document.report.reasons.first ?? "incomplete"))): replay needs a judged run"
            )
        }
        guard document.inputsDigest == inputs.digest, document.shard == inputs.shard else {
            throw .malformed(
                path: runPath,
                reason:
                    "was edited: its inputs (digest \(inputs.digest.prefix(19))) are not the ones \(GateArtifacts.gateFile) records (\(document.inputsDigest.prefix(19)))"
            )
        }
        return inputs
    }

    /// Refuses an archive whose status or verdict files are not the ones its run left (run.json's
    /// ``ArchivePins``); a run.json written before the pins existed gets a note instead.
    static func checkArchivePins(_ inputs: RunInputs, in folder: String, naming bundle: String?, note: (String) -> Void) throws {
        guard let pins = inputs.archivePins else {
            let runFile =
                bundle.map { "\($0): \(RunBundle.topFolder)/\(GateArtifacts.runFile)" } ?? folder + "/" + GateArtifacts.runFile
            note(
                "note: \(runFile) pins no status or verdict files (written by runner \(inputs.runnerVersion)): "
                    + "an edit of them after the run cannot be detected")
            return
        }
        try pins.check(folder)
    }

    /// The builds of DIR/inputs/ when the run archived them and the folder is there (each file
    /// checked against its pinned digest first), else the builds folder and products given.
    static func catalog(for inputs: RunInputs, in folder: String, else given: BuildCatalog) throws -> BuildCatalog {
        guard let archive = inputs.archivedInputs,
            FileManager.default.fileExists(atPath: folder + "/" + ArchivedInputs.folderName)
        else { return given }
        return try archive.catalog(in: folder, pins: inputs.buildFiles, runFile: folder + "/" + GateArtifacts.runFile)
    }

    /// Refuses when a build's executable, entitlements file or manifest no longer has the archived
    /// sha256; a run.json that pinned no manifest (an earlier runner's) gets a note instead.
    static func checkPinned(
        _ inputs: RunInputs, against current: [String: RunInputs.BuildFiles], builds: [String: Build], note: (String) -> Void
    ) throws {
        var unpinned: [String] = []
        for id in inputs.buildFiles.keys.sorted() {
            guard let archived = inputs.buildFiles[id], let now = current[id] else { continue }
            if let manifest = archived.manifest, let build = builds[id], manifest != now.manifest {
                throw GateError.malformed(
                    path: build.folder + "/" + type(of: build.manifest).fileName,
                    reason:
                        "has sha256 \((now.manifest ?? "").prefix(12))… but run.json archived \(manifest.prefix(12))… for build \(id); "
                        + "replay needs the archived manifest (it decides what is seeded and judged)")
            }
            if archived.manifest == nil { unpinned.append(id) }
            for (what, old, new) in [
                ("executable", archived.executable, now.executable),
                ("entitlements", archived.entitlements, now.entitlements),
            ] where old != new {
                throw ReplayError(
                    description: "build \(id): \(what) sha256 is \(new.prefix(12))… but run.json archived \(old.prefix(12))…; "
                        + "replay needs the archived build (rebuild it, or run a new gate)")
            }
            // Each app extension's files, where run.json pins them (a runner before them pinned the manifest alone).
            for (name, pinned) in (archived.extensions ?? [:]).sorted(by: { $0.key < $1.key }) {
                let found = now.extensions?[name]
                for (what, old, new) in [
                    ("executable", pinned.executable, found?.executable),
                    ("entitlements", pinned.entitlements, found?.entitlements),
                ] where old != new {
                    throw ReplayError(
                        description: "build \(id): extension \(name)'s \(what) sha256 is \((new ?? "none").prefix(12))… "
                            + "but run.json archived \(old.prefix(12))…; replay needs the archived build (rebuild it, or run a new gate)"
                    )
                }
            }
        }
        if !unpinned.isEmpty {
            note(
                "note: run.json pins no build.json for \(unpinned.joined(separator: ", ")) (written by runner \(inputs.runnerVersion)): "
                    + "a changed manifest cannot be detected")
        }
    }
}

extension GateError {
    /// This error with a path inside an unpacked bundle named as the bundle's member:
    /// `/tmp/x/run/run.json` becomes `bug.tar.gz: run/run.json`.
    package func naming(bundle: String, unpackedAt folder: String) -> GateError {
        func renamed(_ path: String) -> String {
            path.hasPrefix(folder + "/") ? bundle + ": " + path.dropFirst(folder.count + 1) : path
        }
        switch self {
        case .unreadable(let path, let reason): return .unreadable(path: renamed(path), reason: reason)
        case .malformed(let path, let reason): return .malformed(path: renamed(path), reason: reason)
        default: return self
        }
    }
}
