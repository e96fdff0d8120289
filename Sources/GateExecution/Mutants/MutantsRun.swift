import Foundation
import GateModel
import SimDevice
import SimRuntime

/// Carries out `upgrade-runner mutants`: the released builds' gate, then, for every known-bad build
/// under `builds/mutants/`, the gate with that build as the new one, on a fresh install and on an
/// upgrade path from each released build of a lower schema (a same-schema path would only repeat
/// the mutant's own base), and on the route through every such build in order when there are two or
/// more (`v1-to-v2-to-<mutant>`: data as the earlier releases' migrations left it). Each run is a
/// ``GateRun`` with its own artifacts folder:
///
/// ```
/// <out>/released/                    the released builds' gate (run.json, gate.json, ...)
/// <out>/<mutant>/<old>-to-<mutant>/  one gate run per path of the mutant
/// <out>/mutants.json, mutants.md     the summary and its table
/// ```
package struct MutantsRun {
    package var catalog: BuildCatalog
    /// The released builds, oldest first (`v1,v2,v3`).
    var released: [String]
    var scenarios: [Scenario]
    var runtime: RuntimeVersion
    /// A runtime matrix (`--runtimes`; nil: ``runtime`` alone): each gate runs every cell on each.
    package var runtimes: [RuntimeVersion]? = nil
    var caseID: String
    var outFolder: String
    var jobs: Int
    var timeout: Double
    var progress: @Sendable (String) -> Void = { _ in }

    package init(
        catalog: BuildCatalog, released: [String], scenarios: [Scenario], runtime: RuntimeVersion, caseID: String,
        outFolder: String, jobs: Int, timeout: Double, progress: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.catalog = catalog
        self.released = released
        self.scenarios = scenarios
        self.runtime = runtime
        self.caseID = caseID
        self.outFolder = outFolder
        self.jobs = jobs
        self.timeout = timeout
        self.progress = progress
    }

    /// A mutant resolved: its build and what its manifest says about it.
    package struct Mutant {
        var build: Build
        var antiPattern: String
        var expected: GateCondition
    }

    /// The mutants in the catalogue, sorted by id.
    /// - Throws: ``GateError`` when there is none, or a manifest lacks `antiPattern` or names no known condition.
    package static func mutants(in catalog: BuildCatalog) throws -> [Mutant] {
        let ids = catalog.mutantIDs()
        if ids.isEmpty {
            throw GateError.unreadable(path: catalog.mutantsFolder, reason: "holds no build (mutants/<id>/build.json)")
        }
        return try ids.map { id in
            let build = try catalog.build(id)
            let manifestPath = build.folder + "/build.json"
            guard let antiPattern = build.manifest.antiPattern, !antiPattern.isEmpty else {
                throw GateError.malformed(path: manifestPath, reason: "field \"antiPattern\" is missing")
            }
            guard let text = build.manifest.expectedCondition else {
                throw GateError.malformed(path: manifestPath, reason: "field \"expectedCondition\" is missing")
            }
            guard let expected = GateCondition(rawValue: text) else {
                throw GateError.malformed(
                    path: manifestPath, reason: "field \"expectedCondition\" names unknown condition \"\(text)\"")
            }
            return Mutant(build: build, antiPattern: antiPattern, expected: expected)
        }
    }

    /// The paths a mutant runs on: a fresh install, one from each released build of a lower schema,
    /// and the route through all of those in order, then the mutant, when there are two or more (its
    /// prefixes are released paths, which the released builds' gate judges).
    static func paths(for mutant: Build, released: [Build]) -> [BuildPair] {
        let olds = released.filter {
            $0.manifest.bundleID == mutant.manifest.bundleID && $0.manifest.schemaVersion < mutant.manifest.schemaVersion
        }.map(\.manifest.id)
        let id = mutant.manifest.id
        return [BuildPair(old: nil, new: id)] + olds.map { BuildPair(old: $0, new: id) }
            + (olds.count >= 2 ? [BuildPair(route: olds + [id])] : [])
    }

    /// The scenarios of `scenarios` that apply to `path`: fresh-install on a fresh install; on an
    /// upgrade path every other one, with `upgrade` when the last hop starts from the newest older
    /// build and `skip-version` otherwise (the same checks, named as the gate names them).
    static func scenarios(_ scenarios: [Scenario], on path: BuildPair, newestOld: String?) -> [Scenario] {
        let adjacent = path.previous == newestOld
        return scenarios.filter { scenario in
            // Asked for upgrade or skip-version alone, a mutant meets it on every upgrade path: the
            // two differ only in their name, and a mutant's paths are few.
            let alone =
                scenario == .upgrade && !scenarios.contains(.skipVersion)
                || scenario == .skipVersion && !scenarios.contains(.upgrade)
            if alone && !path.isFreshInstall && path.previous != nil { return true }
            return GatePlan.applies(scenario, to: path, lastHopAdjacent: adjacent)
        }
    }

    /// Every check of the run's input that needs no device, before anything is written: the
    /// released builds (ids, catalogue, order), the mutant catalogue, and an output folder outside
    /// the builds and products folders. `mutants --builds v1,v77` creates no folder.
    package func validate() throws {
        _ = try Self.mutants(in: catalog)
        for id in released { try BuildPair.validate(buildID: id) }
        let releasedBuilds = try GatePipeline.resolve(released, in: catalog)
        try GateRequest.checkOrder(released, releasedBuilds)
        try OutputFolder.checkOutside(outFolder, inputs: catalog.inputFolders)
    }

    /// Runs everything and returns the summary (also written as mutants.json and mutants.md).
    package func execute() throws -> MutantsSummary {
        let releasedBuilds = try GatePipeline.resolve(released, in: catalog)
        let mutants = try Self.mutants(in: catalog)
        // One stage for every gate below: they install the released builds again and again.
        let executables = BuildStage.bytes(of: Array(releasedBuilds.values) + mutants.map(\.build))
        let stage = try BuildStage.shared(needing: executables)
        defer { stage.remove() }
        let releasedReport = try gate(
            builds: released, path: nil, scenarios: scenarios, resolved: releasedBuilds,
            folder: outFolder + "/released", stage: stage)
        progress("released builds \(released.joined(separator: ",")): \(releasedReport.verdict)")

        var outcomes: [MutantOutcome] = []
        for mutant in mutants {
            let id = mutant.build.manifest.id
            let paths = Self.paths(for: mutant.build, released: released.compactMap { releasedBuilds[$0] })
            let newestOld = paths.filter { !$0.isMultiHop }.compactMap(\.old).last
            var reports: [GateReport] = []
            for path in paths {
                // extension-first and interleavings where the mutant (the new build) declares an extension;
                // second-device where the released build its last hop starts at keeps a synchronizable secret.
                var resolved = [id: mutant.build]
                for build in path.builds where build != id { resolved[build] = releasedBuilds[build] }
                let extensions = RunInputs.extensionNames(of: resolved, ids: path.builds) ?? [:]
                let synchronizable = RunInputs.synchronizableBuilds(of: resolved, ids: path.builds) ?? []
                let chosen = Self.scenarios(scenarios, on: path, newestOld: newestOld).filter {
                    GatePlan.fits($0, path, extensions: extensions, synchronizable: synchronizable)
                }
                guard !chosen.isEmpty else { continue }
                reports.append(
                    try gate(
                        builds: path.builds, path: path, scenarios: chosen,
                        resolved: resolved, folder: outFolder + "/" + id + "/" + path.id, stage: stage))
            }
            let outcome = MutantOutcome(id: id, antiPattern: mutant.antiPattern, expected: mutant.expected, reports: reports)
            progress(
                "mutant \(id): caught \(outcome.caughtText); failed: "
                    + (outcome.failed.isEmpty ? "none" : outcome.failed.map(\.rawValue).joined(separator: ",")))
            outcomes.append(outcome)
        }
        let summary = MutantsSummary(releasedVerdict: releasedReport.verdict, released: released, mutants: outcomes)
        try write(summary)
        return summary
    }

    private func gate(
        builds: [String], path: BuildPair?, scenarios: [Scenario], resolved: [String: Build],
        folder: String, stage: BuildStage
    ) throws -> GateReport {
        var inputs = RunInputs(
            builds: builds, path: path, runtime: runtime, caseID: caseID, scenarios: scenarios,
            buildFiles: [:], runnerVersion: UpgradeRunnerVersion.current,
            routes: path == nil ? try GatePlan.recordedRoutes(builds: builds, given: nil) : nil)
        inputs.runtimes = runtimes
        try inputs.recordBuildFeatures(of: resolved, named: nil)
        if inputs.scenarios.isEmpty {
            throw GateError.invalidValue(
                field: .scenarios, value: scenarios.map(\.rawValue).joined(separator: ","),
                reason: "names only scenarios that run where the new build declares an app extension "
                    + "(build.json \"extensions\"), and no released build of \(builds.joined(separator: ", ")) declares one")
        }
        // Judged as --strict: a hygiene warning (a sweep that leaves the kinds of item the app never
        // writes, mutant sweep-generic-only) counts as the FAIL it is under --strict.
        inputs.strict = true
        var pipeline = GatePipeline(
            inputs: inputs, builds: resolved, out: folder,
            settings: RunSettings(jobs: jobs, timeout: timeout, force: true, stage: stage))
        // The catalogue counts the conditions a mutant fails; whether its base fails them too is another question.
        pipeline.judgesPreExisting = false
        return try pipeline.run().report
    }

    private func write(_ summary: MutantsSummary) throws {
        try GateArtifacts.writeFile(GateJSON.pretty(summary), to: outFolder, name: MutantsOutput.jsonFile)
        try GateArtifacts.writeFile(
            Data(("# Known-bad builds against the gate\n\n" + summary.table).utf8), to: outFolder,
            name: MutantsOutput.tableFile)
    }
}

/// The output folder of `upgrade-runner mutants`: guarded like the gate's, so a user's folder that
/// holds anything else is never replaced.
package enum MutantsOutput {
    static let jsonFile = "mutants.json"
    static let tableFile = "mutants.md"
    /// Marks a folder as a mutants run's, so that a new run may replace it.
    static let marker = ".upgrade-runner-mutants"

    /// Empties `folder` for a new run: a missing or empty folder is fine; one from an earlier
    /// mutants run (its marker a regular file holding the runner's words, never a link) has the
    /// entries such a run writes removed (the marker, mutants.json and mutants.md as files,
    /// `released/` and each mutant's folder of gates' folders, no link followed); anything else is refused.
    package static func prepare(_ folder: String) throws(GateError) {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
        if !entries.isEmpty {
            guard isMarked(folder) else {
                throw .outputFolderInUse(folder: folder, reason: "holds files that are not a mutants run's")
            }
            let files: Set<String> = [marker, jsonFile, tableFile]
            for entry in entries {
                var info = stat()
                guard lstat(folder + "/" + entry, &info) == 0 else { continue }
                let kind = info.st_mode & S_IFMT
                let path = folder + "/" + entry
                // released/ is a gate's folder; a mutant's, a folder of gates' folders, one a path.
                let owned =
                    files.contains(entry)
                    ? kind == S_IFREG
                    : entry == "released"
                        ? OutputFolder.isRunFolder(path)
                        : kind == S_IFDIR
                            && ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [""]).allSatisfy {
                                OutputFolder.isRunFolder(path + "/" + $0)
                            }
                guard owned else {
                    throw .outputFolderInUse(
                        folder: folder,
                        reason: "holds \(entry), which a mutants run did not write; move it or choose another folder")
                }
            }
            for entry in entries {
                let failure = OutputFolder.removeTree(folder + "/" + entry)
                guard failure == 0 else {
                    throw .io(
                        path: folder + "/" + entry, doing: "removing the earlier run's file", cause: FileFailure.posix(failure))
                }
            }
        }
        try OutputFolder.create(folder)
        let descriptor = open(folder + "/" + marker, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: folder + "/" + marker, doing: "writing", cause: FileFailure.posix(errno)) }
        defer { close(descriptor) }
        let text = Array(markerText.utf8)
        guard text.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == text.count else {
            throw .io(path: folder + "/" + marker, doing: "writing", cause: FileFailure.posix(errno))
        }
    }

    private static let markerText = "upgrade-runner mutants\n"

    /// Whether `folder`'s marker is a regular file with the runner's words.
    private static func isMarked(_ folder: String) -> Bool {
        let descriptor = open(folder + "/" + marker, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return count > 0 && String(decoding: buffer[0..<count], as: UTF8.self) == markerText
    }
}
