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
            Reruns the archived inputs of DIR/run.json (the same case id, builds, scenarios, runtime and shard) on fresh
            devices into a new folder, then compares every status file (paths/**/status/*.json) with the archived one,
            byte for byte. Prints "identical", or each status file that differs with the JSON fields that differ, and
            the status files present on one side only. The verdicts are compared too, cell by cell, since some
            conditions are judged from device snapshots rather than status files: a cell whose verdict changed is
            printed. Not compared: logs (free-form app output, not deterministic by contract) and timings.json.
            Before anything runs, replay checks that run.json is the one gate.json was written for (its inputs digest);
            that every status file, gate.json, junit.xml and summary.md has the sha256 run.json pinned when the run
            ended, and no status file was added; and that every build's executable, entitlements file and build.json
            still has the sha256 run.json archived. So "identical" means the new run equals the archive as its run left
            it. A run.json from a runner before those pins (no archivePins, or no manifest digest) is replayed with a
            note on standard error that its status files or manifests cannot be proven unchanged.
            When the run archived its inputs (gate --archive-inputs) and DIR/inputs/ is there, the builds come from it
            and nothing else is needed (no builds folder, no products): each archived file must have its pinned sha256.
            A bundle (upgrade-runner bundle, compressed or not) is unpacked first into a folder of the temporary folder,
            upgrade-runner-bundle-<pid>-<id>, readable by this user alone (folders 0700, files 0600), removed when the
            replay ends, or by the next start of the runner when it was killed; a truncated or damaged bundle, or one
            whose members clash, is refused naming the bundle and the member.
            The replay goes beside the archive, never into it: DIR-replay for a folder DIR, NAME-replay for a bundle
            NAME.tar.gz; an --out equal to the archive, inside it, or holding it is refused.
            An interrupted run, or one whose verdict is UNKNOWN, is refused: it has cells that were never judged.
            Exit code: 0 identical, 1 different, 2 bad usage or input (a missing or edited run.json, an edited status
            or verdict file, an unfinished or UNKNOWN run, a changed build, manifest or archived input, a damaged
            bundle, --out inside the archive).
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
