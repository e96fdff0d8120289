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
            Before anything runs, replay checks that run.json is the one gate.json was written for (its inputs digest)
            and that every build's executable and entitlements file still has the sha256 that run.json archived.
            When the run archived its inputs (gate --archive-inputs) and DIR/inputs/ is there, the builds come from it
            and nothing else is needed (no builds folder, no products): each archived file must have its pinned sha256.
            A bundle (upgrade-runner bundle) is unpacked to a temporary folder first; a truncated or damaged one is refused.
            An interrupted run, or one whose verdict is UNKNOWN, is refused: it has cells that were never judged.
            Exit code: 0 identical, 1 different, 2 bad usage or input (a missing or edited run.json, an unfinished or
            UNKNOWN run, a changed build or archived input, a damaged bundle).
            """)

    static func run(_ options: ReplayOptions, _ invocation: Invocation) throws -> Int32 {
        // First, so that a signal during the checks before the run also ends it with exit 3.
        InterruptHandling.install()
        let given = invocation.absolute(invocation.argument(dirArgument))
        var folder = given
        var isDirectory: ObjCBool = false
        let isBundle = FileManager.default.fileExists(atPath: given, isDirectory: &isDirectory) && !isDirectory.boolValue
        // A bundle is unpacked into a temporary folder, removed when the replay ends.
        let unpacked = NSTemporaryDirectory() + "upgrade-runner-bundle-\(getpid())-\(UUID().uuidString)"
        defer { if isBundle { try? FileManager.default.removeItem(atPath: unpacked) } }
        if isBundle { folder = try RunBundle.unpack(given, into: unpacked) }
        let inputs: RunInputs
        let builds: [String: Build]
        let pins: [String: RunInputs.BuildFiles]
        do {
            inputs = try archivedInputs(in: folder)
            let catalog = try catalog(for: inputs, in: folder, else: options.source.catalog)
            builds = try GatePipeline.resolve(inputs.builds, in: catalog)
            pins = try GatePipeline.pin(builds)
            try checkPinned(inputs, against: pins)
        } catch let error as GateError where isBundle {
            throw error.naming(bundle: given, unpackedAt: unpacked)
        }

        let out = options.out.folder(else: isBundle ? bundleReplayFolder(given) : folder + "/" + ArtifactLayout.replayFolder)
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

    /// Refuses when a build's executable or entitlements file no longer has the archived sha256.
    static func checkPinned(_ inputs: RunInputs, against current: [String: RunInputs.BuildFiles]) throws {
        for id in inputs.buildFiles.keys.sorted() {
            guard let archived = inputs.buildFiles[id], let now = current[id] else { continue }
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
    }
}

/// The options of `replay`, read and checked once.
struct ReplayOptions {
    static let out = OptionSpec(
        "--out", value: "DIR",
        "Where the replay writes its artifacts (default: DIR/replay, or NAME-replay beside a bundle NAME.tar.gz; replaced on each replay)."
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
