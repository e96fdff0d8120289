import FileUtility
import Foundation
import UpgradeContract

/// Joins the output folders of a sharded gate (`upgrade-runner merge DIR... --out DIR`) into one verdict.
///
/// Every folder must hold run.json and gate.json made from the same inputs (the same
/// ``RunInputs/digest``) and shards of the same count, each index at most once; otherwise merge
/// refuses with one line naming the folder (exit 2). The expected cells come from the inputs' full
/// plan, so a missing shard's cells have no finding and read UNKNOWN, and the missing shard is named
/// in `incomplete`; so is a shard that did not finish. The merged artifacts are written with the same
/// writers as a single run and, for the same findings, are byte-for-byte those of an unsharded run;
/// every shard's `paths/` cell folders (status files, logs, diffs, snapshots) are copied in beside them,
/// and the archived `inputs/` of the first shard that has them.
package enum GateMerger {
    /// One shard folder as merge read it.
    struct Shard {
        var folder: String
        var inputs: RunInputs
        var spec: ShardSpec
        var document: GateDocument?
    }

    /// Merges `folders` into `out` and answers the merged report.
    /// - Parameters:
    ///   - folders: shard output folders, in any order.
    ///   - out: the folder to write run.json, gate.json, junit.xml, summary.md and the shards' paths/ into.
    ///   - force: replace an earlier run's files in `out`.
    /// - Throws: ``GateError`` (exit 2) for a missing or malformed run.json or gate.json, shards of
    ///   other inputs or another count, a repeated shard, or an output folder in use.
    @discardableResult
    package static func merge(folders: [String], out: String, force: Bool = false) throws(GateError) -> GateReport {
        let read = try read(folders: folders, out: out)
        let (inputs, findings, incomplete, preExisting, policies) = (
            read.inputs, read.findings, read.incomplete, read.preExisting, read.policies
        )
        let plan = try inputs.plan()
        var copies = try unitFolders(of: folders)
        // Every shard archived the same inputs (the same digest pins them): the first one's serve the merged run.
        if inputs.archivedInputs != nil,
            let holder = folders.first(where: { FileManager.default.fileExists(atPath: $0 + "/" + ArchivedInputs.folderName) })
        {
            copies.append((holder + "/" + ArchivedInputs.folderName, ArchivedInputs.folderName))
        }
        var report = GateEngine.evaluate(
            expected: plan.expectedCells(in: nil), findings: findings, incomplete: incomplete, release: inputs.releaseUnderTest,
            baselines: preExisting, strict: inputs.strict ?? false, policies: policies)
        let merged = GateReport.SecretShapes.merged(read.shapes)
        report.shapes = merged.isEmpty ? nil : merged
        // Each shard's cells' inputs, in the plan's order, as the unsharded run lists them.
        let byCell = Dictionary(read.ran.map { ($0.cell, $0) }, uniquingKeysWith: { first, _ in first })
        let ordered = plan.units(in: nil).compactMap { byCell[$0.description] }
        report.inputs = ordered.isEmpty ? nil : ordered
        // Each shard's timelines, in the plan's order (a cell's in the order its shard listed them).
        let position = Dictionary(
            plan.units(in: nil).enumerated().map { ($1.description, $0) }, uniquingKeysWith: { first, _ in first })
        let timelines = read.timelines.enumerated().sorted {
            (position[$0.element.cell] ?? Int.max, $0.offset) < (position[$1.element.cell] ?? Int.max, $1.offset)
        }.map(\.element)
        report.timelines = timelines.isEmpty ? nil : timelines
        try GateArtifacts.begin(inputs: inputs, plan: plan, at: out, force: force)
        var completed = false
        defer { if !completed { OutputFolder.release(out) } }
        for (source, relative) in copies {
            let target = (out as NSString).appendingPathComponent(relative)
            do {
                try FileManager.default.createDirectory(
                    atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: source, toPath: target)
            } catch {
                throw .io(error, "copying \(source) to", target)
            }
        }
        try GateArtifacts.write(report: report, inputs: inputs, to: out)
        completed = true
        return report
    }

    /// The `paths/<path>/<scenario>` entries of every shard folder (`paths/<runtime>/<path>/<scenario>`
    /// in a runtime matrix), to copy into the merged output (status files, logs, entitlements.diff,
    /// snapshots), checked before anything is written.
    /// - Throws: ``GateError/shardMismatch(folder:reason:)`` when two shards hold the same cell folder.
    static func unitFolders(of folders: [String]) throws(GateError) -> [(source: String, relative: String)] {
        let manager = FileManager.default
        func entries(_ folder: String) -> [String] { ((try? manager.contentsOfDirectory(atPath: folder)) ?? []).sorted() }
        var owner: [String: String] = [:]
        var copies: [(source: String, relative: String)] = []
        for folder in folders {
            var pathFolders: [String] = []
            for entry in entries((folder as NSString).appendingPathComponent(ArtifactLayout.paths)) {
                if RuntimeVersion(slug: entry) != nil {
                    pathFolders += entries(folder + "/" + ArtifactLayout.paths + "/" + entry).map {
                        "\(ArtifactLayout.paths)/\(entry)/\($0)"
                    }
                } else {
                    pathFolders.append(ArtifactLayout.paths + "/" + entry)
                }
            }
            for path in pathFolders {
                for scenario in entries((folder as NSString).appendingPathComponent(path)) {
                    let relative = "\(path)/\(scenario)"
                    if let other = owner[relative] {
                        throw .shardMismatch(folder: folder, reason: "holds \(relative), which shard folder \(other) holds too")
                    }
                    owner[relative] = folder
                    copies.append(((folder as NSString).appendingPathComponent(relative), relative))
                }
            }
        }
        return copies
    }

    /// What the shards hold between them: the merged inputs (shard removed), every finding of the
    /// finished shards, the reasons the merge is incomplete, the pre-existing cells, the builds'
    /// policies, each shard's secret shapes and each shard's cells' inputs.
    struct ShardContents {
        var inputs: RunInputs
        var findings: [GateFinding]
        var incomplete: [String]
        var preExisting: [GateCell: GateEngine.Baseline]
        var policies: [GateReport.Policy]
        var shapes: [GateReport.SecretShapes]
        var ran: [CellInputs]
        var timelines: [Timeline]
    }

    /// Reads and checks the shards (``ShardContents``).
    static func read(folders: [String], out: String) throws(GateError) -> ShardContents {
        guard let firstFolder = folders.first else {
            throw .invalidValue(field: .shardFolders, value: "", reason: "needs at least one shard folder")
        }
        var shards: [Shard] = []
        for folder in folders {
            // The merged run would replace a shard's files, or a shard would hold the merged run.
            if ResolvedPath.isSame(out, orInside: folder) || ResolvedPath.isSame(folder, orInside: out) {
                throw .invalidValue(field: .out, value: out, reason: "is, is inside or holds the shard folder \(folder)")
            }
            let inputs = try RunInputs.read(from: (folder as NSString).appendingPathComponent(GateArtifacts.runFile))
            let spec = inputs.shard ?? (try! ShardSpec(index: 1, count: 1))
            if let first = shards.first {
                guard inputs.digest == first.inputs.digest else {
                    throw .shardInputsDiffer(folder: folder, expected: first.inputs.digest, found: inputs.digest)
                }
                guard spec.count == first.spec.count else {
                    throw .shardMismatch(folder: folder, reason: "is shard \(spec) but \(firstFolder) is shard \(first.spec)")
                }
                if let twin = shards.first(where: { $0.spec == spec }) {
                    throw .shardMismatch(folder: folder, reason: "repeats shard \(spec) of \(twin.folder)")
                }
            }
            var document: GateDocument?
            if GateArtifacts.isFinished(folder) {
                let gatePath = (folder as NSString).appendingPathComponent(GateArtifacts.gateFile)
                let read = try GateDocument.read(from: gatePath)
                guard read.inputsDigest == inputs.digest, read.shard == inputs.shard else {
                    throw .malformed(
                        path: gatePath, reason: "was not written for the inputs in run.json (inputs digest or shard differs)")
                }
                document = read
            }
            shards.append(Shard(folder: folder, inputs: inputs, spec: spec, document: document))
        }

        var inputs = shards[0].inputs
        inputs.shard = nil
        var findings: [GateFinding] = []
        var incomplete: [String] = []
        var preExisting: [GateCell: GateEngine.Baseline] = [:]
        // Every shard read the same builds' manifests, so any finished shard's policies are the run's.
        var policies: [GateReport.Policy] = []
        // Each shard's shapes are its own cells'; the run's are their union.
        var shapes: [GateReport.SecretShapes] = []
        // Each shard's cells' launches, clocks and seed variants (``CellInputs``).
        var ran: [CellInputs] = []
        var timelines: [Timeline] = []
        for sibling in shards[0].spec.siblings {
            guard let shard = shards.first(where: { $0.spec == sibling }) else {
                incomplete.append("shard \(sibling) is missing")
                continue
            }
            guard let document = shard.document else {
                incomplete.append("shard \(sibling) did not finish")
                continue
            }
            findings += document.report.allFindings
            policies = document.report.policies ?? policies
            shapes += document.report.shapes ?? []
            ran += document.report.inputs ?? []
            timelines += document.report.timelines ?? []
            // Each shard judged its own cells' pre-existing failures (`path/scenario/condition`; a matrix path holds a slash).
            for entry in document.report.preExisting ?? [] {
                let parts = entry.cell.split(separator: "/").map(String.init)
                guard parts.count >= 3, let scenario = Scenario(rawValue: parts[parts.count - 2]),
                    let condition = GateCondition(rawValue: parts[parts.count - 1]),
                    let path = RuntimePath(id: parts.dropLast(2).joined(separator: "/"))
                else { continue }
                // The baseline findings that excused the shard's own: the same ones excuse them here.
                preExisting[GateCell(path: path, scenario: scenario, condition: condition)] = GateEngine.Baseline(
                    shownBy: entry.shownBy, findings: (entry.findings ?? []).map(\.baseline))
            }
            incomplete += document.report.incomplete.map { "shard \(sibling): \($0)" }
        }
        return ShardContents(
            inputs: inputs, findings: findings, incomplete: incomplete, preExisting: preExisting, policies: policies,
            shapes: shapes, ran: ran, timelines: timelines)
    }
}
