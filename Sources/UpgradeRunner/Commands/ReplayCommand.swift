import Foundation
import GateExecution
import GateModel
import SimDevice

/// `upgrade-runner replay DIR`: reruns an archived run from its run.json and compares the status files.
enum ReplayCommand {
    static let dirArgument = ArgumentSpec(
        "DIR", "An artifacts folder holding run.json and gate.json, or a bundle file made by upgrade-runner bundle.")
    static let spec = CommandSpec(
        ["replay"], summary: "Rerun a run from its artifacts and compare the status files.",
        arguments: [dirArgument],
        options: [
            ReplayOptions.out, CommonOptions.force, ReplayOptions.quiet, CommonOptions.jobs, CommonOptions.timeout,
            CommonOptions.buildsDir, CommonOptions.products,
        ],
        discussion: """
            Reruns DIR/run.json's inputs (or a bundle's) on fresh devices beside the archive (DIR-replay) and compares
            every status file byte for byte and every cell's verdict: prints "identical" or what differs. The archive's
            pins are checked first: an edited, unfinished or UNKNOWN run or a changed build is refused. In full:
            docs/cli.md#replay. Exit code: 0 identical, 1 different, 2 bad usage or input, 3 a file could not be
            written.
            """)

    static func run(_ options: ReplayOptions, _ invocation: Invocation) throws -> Int32 {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        let argument = invocation.argument(dirArgument)
        let given = invocation.absolute(argument)
        var folder = given
        var isDirectory: ObjCBool = false
        let isBundle = FileManager.default.fileExists(atPath: given, isDirectory: &isDirectory) && !isDirectory.boolValue
        let out = options.out.folder(else: isBundle ? bundleReplayFolder(given) : folderReplayFolder(given))
        if ResolvedPath.isSame(out, orInside: given) || ResolvedPath.isSame(given, orInside: out) {
            throw CommandFailure(
                message: "replay: --out \(out) and the archive \(argument) overlap (one is, or is inside, the other); "
                    + "the replay must not write into what it compares",
                code: ExitStatus.usage)
        }
        // A bundle is unpacked into a temporary folder, removed when the replay ends (or, when the
        // runner is killed, by the next start: RunBundle.removeAbandonedUnpacks).
        let unpacked = NSTemporaryDirectory() + RunBundle.unpackPrefix + "\(getpid())-\(UUID().uuidString)"
        defer {
            if isBundle {
                try? FileManager.default.removeItem(atPath: unpacked)
                TemporaryDevices.forget(unpacked)
            }
        }
        // A SIGINT or SIGTERM removes it too (the interrupt's handler removes what is registered).
        if isBundle { TemporaryDevices.register(unpacked) }
        if isBundle { folder = try RunBundle.unpack(given, into: unpacked) }
        let inputs: RunInputs
        let builds: [String: Build]
        let pins: [String: RunInputs.BuildFiles]
        do {
            inputs = try archivedInputs(in: folder)
            try checkArchivePins(inputs, in: folder, console: invocation.console, naming: isBundle ? given : nil)
            let catalog = try catalog(for: inputs, in: folder, else: options.source.catalog)
            builds = try GatePipeline.resolve(inputs.builds, in: catalog)
            pins = try GatePipeline.pin(builds)
            try checkPinned(inputs, against: pins, builds: builds, console: invocation.console)
        } catch let error as GateError where isBundle {
            throw error.naming(bundle: given, unpackedAt: unpacked)
        }

        var replayInputs = inputs
        if inputs.runnerVersion != UpgradeRunnerVersion.current {
            invocation.console.error(
                "note: archived by runner \(inputs.runnerVersion), replayed by \(UpgradeRunnerVersion.current)")
            replayInputs.runnerVersion = UpgradeRunnerVersion.current
        }
        let console = invocation.console
        let (report, _) = try GatePipeline(
            inputs: replayInputs, builds: builds, out: out, jobs: options.execution.jobs, timeout: options.execution.timeout,
            force: options.out.force, progress: GateProgress(console: console, quiet: options.quiet), pins: pins
        ).run()
        console.error("replay: \(out) (verdict \(report.verdict))")

        let comparison = try StatusComparison.compare(
            archived: folder, replay: out, secrets: GatePipeline.secrets(caseID: inputs.caseID, builds: builds.values))
        let verdicts = verdictChanges(
            archived: try GateDocument.read(from: folder + "/" + GateArtifacts.gateFile).report, replay: report)
        if comparison.isIdentical && verdicts.isEmpty {
            for line in comparison.report { console.output(line) }
            return ExitStatus.pass
        }
        for line in comparison.report where line != "identical" { console.output(line) }
        for line in verdicts { console.output(line) }
        return ExitStatus.fail
    }

    /// The cells (path and scenario) whose verdict differs between the archived run and the replay.
    static func verdictChanges(archived: GateReport, replay: GateReport) -> [String] {
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
    static func archivedInputs(in folder: String) throws(GateError) -> RunInputs {
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

    /// Where a folder's replay goes by default: beside it, `/tmp/g` -> `/tmp/g-replay` (never inside
    /// the archive it compares).
    static func folderReplayFolder(_ folder: String) -> String {
        var base = folder
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        return base + "-replay"
    }

    /// Refuses an archive whose status or verdict files are not the ones its run left (run.json's
    /// ``ArchivePins``); a run.json written before the pins existed gets a note instead.
    static func checkArchivePins(_ inputs: RunInputs, in folder: String, console: Console, naming bundle: String?) throws {
        guard let pins = inputs.archivePins else {
            let runFile = bundle.map { "\($0): \(RunBundle.topFolder)/\(GateArtifacts.runFile)" } ?? folder + "/" + GateArtifacts.runFile
            console.error(
                "note: \(runFile) pins no status or verdict files (written by runner \(inputs.runnerVersion)): "
                    + "an edit of them after the run cannot be detected")
            return
        }
        try pins.check(folder)
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

    /// The builds of DIR/inputs/ when the run archived them and the folder is there (each file
    /// checked against its pinned digest first), else the builds folder and products as today.
    static func catalog(for inputs: RunInputs, in folder: String, else given: BuildCatalog) throws -> BuildCatalog {
        guard let archive = inputs.archivedInputs,
            FileManager.default.fileExists(atPath: folder + "/" + ArchivedInputs.folderName)
        else { return given }
        return try archive.catalog(in: folder, pins: inputs.buildFiles, runFile: folder + "/" + GateArtifacts.runFile)
    }

    /// Refuses when a build's executable, entitlements file or manifest no longer has the archived
    /// sha256; a run.json that pinned no manifest (an earlier runner's) gets a note instead.
    static func checkPinned(
        _ inputs: RunInputs, against current: [String: RunInputs.BuildFiles], builds: [String: Build], console: Console
    ) throws {
        var unpinned: [String] = []
        for id in inputs.buildFiles.keys.sorted() {
            guard let archived = inputs.buildFiles[id], let now = current[id] else { continue }
            if let manifest = archived.manifest, let build = builds[id], manifest != now.manifest {
                throw GateError.malformed(
                    path: build.folder + "/" + type(of: build.manifest).fileName,
                    reason: "has sha256 \((now.manifest ?? "").prefix(12))… but run.json archived \(manifest.prefix(12))… for build \(id); "
                        + "replay needs the archived manifest (it decides what is seeded and judged)")
            }
            if archived.manifest == nil { unpinned.append(id) }
            for (what, old, new) in [
                ("executable", archived.executable, now.executable),
                ("entitlements", archived.entitlements, now.entitlements),
            ] where old != new {
                throw CommandFailure(
                    message: "build \(id): \(what) sha256 is \(new.prefix(12))… but run.json archived \(old.prefix(12))…; "
                        + "replay needs the archived build (rebuild it, or run a new gate)",
                    code: ExitStatus.usage)
            }
        }
        if !unpinned.isEmpty {
            console.error(
                "note: run.json pins no build.json for \(unpinned.joined(separator: ", ")) (written by runner \(inputs.runnerVersion)): "
                    + "a changed manifest cannot be detected")
        }
    }
}

/// The options of `replay`, read and checked once.
struct ReplayOptions {
    static let out = OptionSpec(
        "--out", value: "DIR",
        "Where the replay writes its artifacts (default: DIR-replay beside DIR, or NAME-replay beside a bundle NAME.tar.gz; replaced on each replay; never inside the archive)."
    )
    static let quiet = OptionSpec("--quiet", "Print no progress on standard error.")

    var source: BuildSource
    var execution: CellExecution
    var out: OutOption
    var quiet: Bool

    init(_ options: OptionValues) throws {
        source = BuildSource(options)
        execution = try CellExecution(options)
        out = OutOption(options, Self.out)
        quiet = options.flag(Self.quiet)
    }
}

extension GateError {
    /// This error with a path inside an unpacked bundle named as the bundle's member:
    /// `/tmp/x/run/run.json` becomes `bug.tar.gz: run/run.json`.
    func naming(bundle: String, unpackedAt folder: String) -> GateError {
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
