import Foundation
import GateModel
import SimDevice
import SimRuntime

/// Runs a gate's cells (`jobs` at a time, each on its own fresh device), scans every artifact for
/// the seeded secrets, judges, and writes the artifacts: the last steps of ``GatePipeline``, which
/// hands it the plan and the pinned inputs.
///
/// The verdict fails closed: gate.json says UNKNOWN from the first moment (see
/// ``GateArtifacts/begin(inputs:plan:at:force:)``) and is replaced only when every cell has been judged.
struct GateRun {
    var inputs: RunInputs
    var plan: GatePlan
    var outFolder: String
    /// How it runs (``RunSettings``): jobs, timeout, force, kept devices, the stage (where
    /// executables on another file system than the devices are copied; nil: into the run's own
    /// folder, ``BuildStage``).
    var settings: RunSettings
    var progress: GateProgress = .silent
    /// Whether a deciding cell's FAIL is judged against the old build in the new build's place
    /// (``PreExisting``); `mutants` leaves it out: its catalogue counts a mutant's failed cells.
    var judgesPreExisting = true

    private var jobs: Int { settings.jobs }
    private var timeout: Double { settings.timeout }
    private var stage: BuildStage? { settings.stage }
    private var keepFailed: String? { settings.keepFailed }

    /// Runs the plan and returns the report (also written to `outFolder`).
    package func execute(builds: [String: Build]) throws -> GateReport {
        try TemporaryDevices.checkScratch()
        let unread = try BuildPreflight.check(Array(builds.values), runtime: inputs.runtime, timeout: timeout)
        if let keepFailed { try KeptDevices.check(keepFailed, out: outFolder) }
        try GateArtifacts.begin(inputs: inputs, plan: plan, at: outFolder, force: settings.force)
        // Whatever stops the run before its verdict is written, the folder reads as unfinished.
        var completed = false
        defer { if !completed { OutputFolder.release(outFolder) } }
        try inputs.archivedInputs?.write(builds, to: outFolder)
        let units = plan.units(in: inputs.shard)
        let policies = DeclaredPolicies.report(builds: builds, units: units)
        progress.start(
            cells: units.count, paths: Set(units.map(\.path)).count, scenarios: Set(units.map(\.scenario)).count,
            inputs: inputs, jobs: max(1, min(jobs, units.count)))
        // After the output folder is taken: bad input is still one line.
        if !unread.isEmpty { progress.noStartupRead(unread) }
        // A stage of the whole command holds the executables already, so the run's devices go beside
        // it (choosing again, for no executables, could pick another file system, where every
        // install would copy them); a run's own stage goes where its executables have room.
        // With --keep-failed, the devices live in the kept folder, so that keeping one is a rename.
        let kept = try keepFailed.map { folder throws(GateError) in try KeptDevices(folder: folder) }
        let parent =
            kept.map { $0.folder + "/" } ?? stage?.parent ?? TemporaryDevices.parent(needing: BuildStage.bytes(of: builds.values))
        let workRoot = parent + TemporaryDevices.prefix + "\(getpid())-\(UUID().uuidString)"
        try TemporaryDevices.create(workRoot)
        defer { TemporaryDevices.remove(workRoot) }
        let devices = DeviceSet(root: workRoot)
        let builds = try (stage ?? BuildStage(folder: workRoot)).staged(builds, for: workRoot)

        let results = CellResults(count: units.count)
        let workers = max(1, min(jobs, units.count))
        // The long exploration cells start first, so that no worker is left with one at the end.
        let order = units.indices.sorted {
            (units[$0].scenario.isExploration ? 0 : 1, $0) < (units[$1].scenario.isExploration ? 0 : 1, $1)
        }
        let secondClock = inputs.inputSet != .minimal
        let unreadBuilds = Set(unread)
        let skips = ShapeSkips()
        let runCell: @Sendable (PlanUnit, String) -> (findings: [GateFinding], inputs: CellInputs, timelines: [Timeline]) = {
            unit, folder in
            var cell = CellRunner(
                unit: unit, old: unit.path.old.flatMap { builds[$0] }, via: unit.path.via.map { builds[$0]! },
                new: builds[unit.path.new]!,
                runtime: unit.runtime ?? inputs.runtime, caseID: inputs.caseID, devices: devices,
                outFolder: folder, timeout: timeout, runScenarios: inputs.scenarios)
            cell.secondClock = secondClock
            // A baseline cell (the old build in the new one's place) keeps no device.
            if folder == outFolder { cell.kept = kept }
            let (evidence, judged, ran) = cell.run()
            let findings = StaysSignedIn.judgedWithoutStartupRead(judged, unit: unit, unread: unreadBuilds)
            if folder == outFolder { skips.add(ShapeCoverage.skips(evidence, declarations: cell.declarations)) }
            return (findings, ran, cell.timelines(evidence, findings: findings))
        }
        Self.inParallel(units.count, workers: workers) { position in
            let index = order[position]
            let unit = units[index]
            let start = DispatchTime.now().uptimeNanoseconds
            let (findings, ran, timelines) = runCell(unit, outFolder)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            results.set(index, findings: findings, seconds: seconds, inputs: ran, timelines: timelines)
            progress.finished(unit.description, Verdict.combine(findings.map(\.verdict)), seconds: seconds)
        }
        // The baseline of each deciding cell that failed: the old build in the new build's place, or
        // on a fresh install the previous release over itself.
        let baselines =
            judgesPreExisting
            ? PreExisting.baselines(units: units, findings: results.all, release: inputs.releaseUnderTest, builds: inputs.builds)
            : []
        progress.baselines(baselines.count)
        let preExisting = PreExistingCells()
        Self.inParallel(baselines.count, workers: max(1, min(jobs, baselines.count))) { position in
            let (original, baseline) = baselines[position]
            let start = DispatchTime.now().uptimeNanoseconds
            let findings = runCell(baseline, outFolder + "/" + ArtifactLayout.baseline).findings
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            preExisting.add(PreExisting.judged(original: original, baseline: baseline, findings: findings))
            progress.finished(
                PreExisting.describe(baseline, original: original), Verdict.combine(findings.map(\.verdict)),
                seconds: seconds, baseline: true)
        }

        // An interrupted run leaves its UNKNOWN placeholder in place: the interrupt's handler ends
        // the process once the devices are gone, and no verdict is written after the interrupt.
        InterruptHandling.waitIfInterrupted()
        progress.end()
        let expected = plan.expectedCells(in: inputs.shard)
        let secrets = GatePipeline.secrets(caseID: inputs.caseID, builds: builds.values)
        // One set of patterns for the findings' text and the leak scan (2,000 and more of them).
        let patterns = Result { () throws(GateError) in try SecretPatterns(secrets: secrets) }
        let sanitizer = FindingSanitizer(secrets: secrets, patterns: try? patterns.get(), workRoot: workRoot)
        var findings = sanitizer.clean(results.findings)
        let scan = try SecretScanner.scan(directory: outFolder, secrets: secrets, patterns: patterns.get())
        let shapes = ShapeCoverage.report(
            units: units, builds: builds, caseID: inputs.caseID, skips: skips.byLabel, runScenarios: inputs.scenarios)
        // A label seeded only `empty` (no bytes) in every cell cannot leak: its clean scan is no PASS.
        // Every cell of the plan counts, not only this shard's, so that shards merge to the whole gate.
        // (A skipped `bytes` seeded the `alnum` value instead: bytes either way.)
        let planShapes = ShapeCoverage.report(
            units: plan.units(in: nil), builds: builds, caseID: inputs.caseID, skips: [:], runScenarios: inputs.scenarios)
        let unseeded = planShapes.filter { !$0.covered.contains { $0 != .empty } }.map(\.label)
        findings += NoSecretInArtifactsChecker.findings(for: scan, cells: expected, unseeded: unseeded)
        LeakRedaction.redact(scan.leaks, in: outFolder, keep: kept)
        var report = GateEngine.evaluate(
            expected: expected, findings: findings, release: inputs.releaseUnderTest,
            baselines: preExisting.cells.mapValues {
                GateEngine.Baseline(shownBy: $0.shownBy, findings: sanitizer.clean($0.findings))
            },
            strict: inputs.strict ?? false, policies: policies)
        report.inputs = results.inputs
        if let kept {
            kept.writeIndex()
            report.keptDevices = GateReport.KeptDevicesNote(folder: kept.folder, count: kept.count)
        }
        let timelines = results.timelines
        report.timelines = timelines.isEmpty ? nil : timelines
        report.shapes = shapes.isEmpty ? nil : shapes
        try writeTimings(units: units, seconds: results.seconds, scan: scan)
        try GateArtifacts.write(report: report, inputs: inputs, to: outFolder)
        completed = true
        return report
    }

    /// timings.json: wall time per cell. Not compared by replay, not part of the verdict.
    private func writeTimings(units: [PlanUnit], seconds: [Double], scan: SecretScanResult) throws {
        var cells: [String: Double] = [:]
        for (unit, time) in zip(units, seconds) { cells[unit.description] = (time * 1000).rounded() / 1000 }
        let document: [String: Any] = [
            "cells": cells, "jobs": jobs,
            "leakScan": ["files": scan.filesScanned, "bytes": scan.bytesScanned, "filesByDigest": scan.filesByDigest],
            "cpuSeconds": ["runner": Self.cpuSeconds(children: false), "apps": Self.cpuSeconds(children: true)],
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .prettyPrinted])
        try ArtifactFile.write(data, to: outFolder + "/" + ArtifactLayout.timingsFile)
    }
}

extension GateRun {
    /// Runs `body` for each position below `count` on `workers` threads, each position once, each
    /// as a cell of ``TemporaryDevices``: an interrupted runner starts no more, and the ones it
    /// skips stay UNKNOWN.
    static func inParallel(_ count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let position = next.take(below: count) {
                guard TemporaryDevices.beginCell() else { break }
                defer { TemporaryDevices.endCell() }
                body(position)
            }
        }
    }

    /// User and system CPU seconds so far of this process (`RUSAGE_SELF`: the runner) or of its
    /// reaped children (`RUSAGE_CHILDREN`: the app launches), to the millisecond: the split the
    /// benchmarks print beside wall time.
    static func cpuSeconds(children: Bool) -> Double {
        var usage = rusage()
        let who = children ? RUSAGE_CHILDREN : RUSAGE_SELF
        guard getrusage(__rusage_who_t(who.rawValue), &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ((seconds(usage.ru_utime) + seconds(usage.ru_stime)) * 1000).rounded() / 1000
    }
}

/// Hands out indexes to workers, each once.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func take(below limit: Int) -> Int? {
        lock.withLock {
            guard value < limit else { return nil }
            defer { value += 1 }
            return value
        }
    }
}

/// What the baseline workers found, by the original cell.
private final class PreExistingCells: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [GateCell: GateEngine.Baseline] = [:]
    func add(_ cells: [GateCell: GateEngine.Baseline]) { lock.withLock { stored.merge(cells) { first, _ in first } } }
    var cells: [GateCell: GateEngine.Baseline] { lock.withLock { stored } }
}

/// The cells' findings and times, filled in by the workers.
/// The cells' shape skips (``ShapeCoverage/skips(_:declarations:)``), by label.
private final class ShapeSkips: @unchecked Sendable {
    private let lock = NSLock()
    private var notes: [String: [String]] = [:]
    func add(_ skips: [(label: String, note: String)]) {
        lock.withLock { for skip in skips { notes[skip.label, default: []].append(skip.note) } }
    }
    var byLabel: [String: [String]] { lock.withLock { notes } }
}

private final class CellResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [[GateFinding]]
    private var times: [Double]
    private var ran: [CellInputs?]
    private var failed: [[Timeline]]
    init(count: Int) {
        stored = Array(repeating: [], count: count)
        times = Array(repeating: 0, count: count)
        ran = Array(repeating: nil, count: count)
        failed = Array(repeating: [], count: count)
    }
    func set(_ index: Int, findings: [GateFinding], seconds: Double, inputs: CellInputs, timelines: [Timeline]) {
        lock.withLock {
            stored[index] = findings
            times[index] = seconds
            ran[index] = inputs
            failed[index] = timelines
        }
    }
    /// The timelines of what failed, in the units' order.
    var timelines: [Timeline] { lock.withLock { failed.flatMap { $0 } } }
    /// What each unit that ran ran, in the units' order.
    var inputs: [CellInputs] { lock.withLock { ran.compactMap { $0 } } }
    var findings: [GateFinding] { lock.withLock { stored.flatMap { $0 } } }
    /// Each unit's findings, in the units' order.
    var all: [[GateFinding]] { lock.withLock { stored } }
    var seconds: [Double] { lock.withLock { times } }
}
