import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

@Suite struct GateMergerTests {
    /// Writes shard `index` of `count` into `root/shard-<index>`, with a PASS finding for every cell
    /// except those `fail` picks.
    @discardableResult
    func writeShard(
        _ index: Int, of count: Int, in root: TemporaryDirectory, inputs base: RunInputs = SampleGate.inputs(),
        fail: (GateCell) -> Bool = { _ in false }
    ) throws -> String {
        var inputs = base
        inputs.shard = try ShardSpec(index: index, count: count)
        let cells = try inputs.plan().expectedCells(in: inputs.shard)
        let findings = cells.map {
            GateFinding(
                $0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: fail($0) ? .fail : .pass, detail: "checked")
        }
        let folder = root.file("shard-\(index)")
        try GateArtifacts.begin(inputs: inputs, plan: try inputs.plan(), at: folder, force: false)
        let report = GateEngine.evaluate(expected: cells, findings: findings, release: inputs.releaseUnderTest)
        try GateArtifacts.write(report: report, inputs: inputs, to: folder)
        return folder
    }

    @Test("merging every shard gives the unsharded run's artifacts, byte for byte")
    func complete() throws {
        let root = try TemporaryDirectory("merge")
        let folders = try (1...3).reversed().map { try writeShard($0, of: 3, in: root) }
        let report = try GateMerger.merge(folders: folders, out: root.file("merged"))
        #expect(report.verdict == .pass)

        let inputs = SampleGate.inputs()
        let cells = try inputs.plan().expectedCells(in: nil)
        let whole = GateEngine.evaluate(
            expected: cells,
            findings: cells.map {
                GateFinding($0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: .pass, detail: "checked")
            }, release: inputs.releaseUnderTest)
        try GateArtifacts.write(report: whole, inputs: inputs, to: root.file("whole"))
        for name in ["run.json", "gate.json", "junit.xml", "summary.md"] {
            #expect(
                FileManager.default.contents(atPath: root.file("merged/\(name)"))
                    == FileManager.default.contents(atPath: root.file("whole/\(name)")), "\(name)")
        }
    }

    @Test(
        "pre-existing per finding survives a merge: each shard's excused findings beside their baseline's, as the unsharded run judges them"
    )
    func preExistingPerFinding() throws {
        let root = try TemporaryDirectory("merge")
        let inputs = SampleGate.inputs()
        let target = GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .readsOldData)
        let old = FindingKey("authToken", in: .secret, .lost)
        func findings(_ cells: [GateCell]) -> [GateFinding] {
            cells.flatMap { cell -> [GateFinding] in
                guard cell == target else {
                    return [
                        GateFinding(
                            cell.condition, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass, detail: "checked")
                    ]
                }
                return [
                    GateFinding(
                        cell.condition, path: cell.runtimePath, scenario: cell.scenario, item: "authToken", verdict: .fail,
                        detail: "lost (03-v2-verify)", key: old),
                    GateFinding(
                        cell.condition, path: cell.runtimePath, scenario: cell.scenario, item: "session", verdict: .fail,
                        detail: "lost (03-v2-verify)",
                        key: FindingKey("session", in: .secret, .lost)),
                ]
            }
        }
        let baselineFinding = GateFinding(
            .readsOldData, path: .id("v1-to-v1"), scenario: .upgrade, item: "authToken", verdict: .fail,
            detail: "lost (03-v1-verify)", key: old)
        let baselines = [target: GateEngine.Baseline(shownBy: "v1-to-v1/upgrade", findings: [baselineFinding])]
        var folders: [String] = []
        for index in 1...2 {
            var shard = inputs
            shard.shard = try ShardSpec(index: index, count: 2)
            let cells = try shard.plan().expectedCells(in: shard.shard)
            let folder = root.file("shard-\(index)")
            try GateArtifacts.begin(inputs: shard, plan: try shard.plan(), at: folder, force: false)
            let report = GateEngine.evaluate(
                expected: cells, findings: findings(cells), release: shard.releaseUnderTest,
                baselines: baselines.filter { cells.contains($0.key) })
            try GateArtifacts.write(report: report, inputs: shard, to: folder)
            folders.append(folder)
        }
        let merged = try GateMerger.merge(folders: folders, out: root.file("merged"))
        #expect(merged.verdict == .fail && merged.reasons == ["v1-to-v2/upgrade/reads-old-data: session: lost (03-v2-verify)"])
        #expect(
            merged.preExisting?.first?.findings?.map(\.baseline) == [baselineFinding]
                && merged.preExisting?.first?.alsoDeciding == true)

        let cells = try inputs.plan().expectedCells(in: nil)
        let whole = GateEngine.evaluate(
            expected: cells, findings: findings(cells), release: inputs.releaseUnderTest, baselines: baselines)
        try GateArtifacts.write(report: whole, inputs: inputs, to: root.file("whole"))
        for name in ["gate.json", "junit.xml"] {
            #expect(
                FileManager.default.contents(atPath: root.file("merged/\(name)"))
                    == FileManager.default.contents(atPath: root.file("whole/\(name)")), "\(name)")
        }
        // The summary's rerun lines name each run's own folder.
        let summary = try String(contentsOfFile: root.file("merged/summary.md"), encoding: .utf8)
        #expect(
            summary.replacingOccurrences(of: "/merged/", with: "/whole/")
                == (try String(contentsOfFile: root.file("whole/summary.md"), encoding: .utf8)))
        #expect(summary.contains("`v1-to-v1/upgrade` has the same finding: authToken: lost (03-v1-verify)"))
    }

    @Test("a missing shard makes the merge UNKNOWN, never PASS, and names the shard")
    func missingShard() throws {
        let root = try TemporaryDirectory("merge")
        let folders = try [1, 3].map { try writeShard($0, of: 3, in: root) }
        let report = try GateMerger.merge(folders: folders, out: root.file("merged"))
        #expect(report.verdict == .unknown && report.verdict.exitCode == 3)
        #expect(report.incomplete == ["shard 2/3 is missing"])
        #expect(try GateDocument.read(from: root.file("merged/gate.json")).report.verdict == .unknown)
    }

    @Test("a shard that started and never finished makes the merge UNKNOWN")
    func unfinishedShard() throws {
        let root = try TemporaryDirectory("merge")
        var inputs = SampleGate.inputs()
        inputs.shard = try ShardSpec(parsing: "2/2")
        try GateArtifacts.begin(inputs: inputs, plan: try inputs.plan(), at: root.file("shard-2"), force: false)
        let report = try GateMerger.merge(
            folders: [try writeShard(1, of: 2, in: root), root.file("shard-2")], out: root.file("merged"))
        #expect(report.verdict == .unknown && report.incomplete == ["shard 2/2 did not finish"])
    }

    @Test("a FAIL in one shard fails the merge")
    func failingShard() throws {
        let root = try TemporaryDirectory("merge")
        let folders = try (1...2).map { try writeShard($0, of: 2, in: root, fail: { $0.condition == .readsOldData }) }
        #expect(try GateMerger.merge(folders: folders, out: root.file("merged")).verdict == .fail)
    }

    @Test("shards made from different inputs are refused in one line naming the folder")
    func differentInputs() throws {
        let root = try TemporaryDirectory("merge")
        let one = try writeShard(1, of: 2, in: root)
        var other = SampleGate.inputs()
        other.caseID = "case-8"
        let two = try writeShard(2, of: 2, in: root, inputs: other)
        do {
            try GateMerger.merge(folders: [one, two], out: root.file("merged"))
            Issue.record("merge accepted shards of different inputs")
        } catch {
            guard case .shardInputsDiffer(let folder, _, _) = error else { Issue.record("\(error)"); return }
            #expect(
                folder == two && ExitStatus.report(error).code == 2 && error.description.hasPrefix(two)
                    && !error.description.contains("\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: root.file("merged")))
    }

    @Test("a repeated shard, another shard count or a missing run.json is refused")
    func mismatches() throws {
        let root = try TemporaryDirectory("merge")
        let one = try writeShard(1, of: 2, in: root)
        let copy = root.file("copy")
        try FileManager.default.copyItem(atPath: one, toPath: copy)
        #expect(throws: GateError.shardMismatch(folder: copy, reason: "repeats shard 1/2 of \(one)")) {
            try GateMerger.merge(folders: [one, copy], out: root.file("merged"))
        }
        let other = try TemporaryDirectory("merge-other")
        let three = try writeShard(3, of: 3, in: other)
        #expect(throws: GateError.shardMismatch(folder: three, reason: "is shard 3/3 but \(one) is shard 1/2")) {
            try GateMerger.merge(folders: [one, three], out: root.file("merged"))
        }
        #expect(throws: GateError.unreadable(path: root.file("empty/run.json"), reason: "is missing")) {
            try GateMerger.merge(folders: [one, root.file("empty")], out: root.file("merged"))
        }
        #expect(throws: GateError.self) { try GateMerger.merge(folders: [one], out: one) }
    }

    @Test("a gate.json edited to claim other inputs is refused")
    func editedGate() throws {
        let root = try TemporaryDirectory("merge")
        let one = try writeShard(1, of: 1, in: root)
        let path = one + "/gate.json"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let digest = SampleGate.inputs().digest
        try text.replacingOccurrences(of: digest, with: "sha256:" + String(repeating: "0", count: 64)).write(
            toFile: path, atomically: true, encoding: .utf8)
        #expect(
            throws: GateError.malformed(
                path: path, reason: "was not written for the inputs in run.json (inputs digest or shard differs)")
        ) {
            try GateMerger.merge(folders: [one], out: root.file("merged"))
        }
    }
}
