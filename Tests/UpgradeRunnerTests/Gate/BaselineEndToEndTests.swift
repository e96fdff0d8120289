import Foundation
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing

/// A baseline wherever the release is judged alone, end to end: reinstall-self runs on the release's
/// fresh install only, so its baseline is the previous release over itself. Two releases that never
/// swept are one finding, pre-existing; a release that stops sweeping where the previous one swept decides.
@Suite("reinstall-self's baseline, end to end")
struct BaselineEndToEndTests {
    /// A catalogue with v2 (it sweeps), the known-bad build that never sweeps (`no-reinstall-sweep`,
    /// 2.1, 210), and an earlier release of that same executable, `never-a` (2.0.5, 205): it never swept either.
    static func catalogue(_ cli: CLI) throws -> String {
        let manager = FileManager.default
        let folder = cli.directory.file("catalogue")
        try manager.createDirectory(atPath: folder + "/mutants", withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: folder + "/v2", withDestinationPath: RunFolders.repositoryBuilds + "/v2")
        let source = RunFolders.repositoryBuilds + "/mutants/no-reinstall-sweep"
        try manager.createSymbolicLink(atPath: folder + "/mutants/no-reinstall-sweep", withDestinationPath: source)
        let build = folder + "/never-a"
        try manager.createDirectory(atPath: build, withIntermediateDirectories: true)
        try manager.copyItem(atPath: source + "/Ledger.entitlements", toPath: build + "/Ledger.entitlements")
        var manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source + "/build.json")))
                as? [String: Any])
        manifest["id"] = "never-a"
        manifest["marketingVersion"] = "2.0.5"
        manifest["buildNumber"] = "205"
        // The executable names itself no-reinstall-sweep: a stand-in (its own status files say so, in its baseline only).
        manifest["standIn"] = true
        manifest["expectedCondition"] = nil
        manifest["antiPattern"] = nil
        try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(
            to: URL(fileURLWithPath: build + "/build.json"))
        return folder
    }

    /// What a gate of `builds` over reinstall-self left (read before the test's folder goes).
    struct Run {
        var code: Int32
        var document: GateDocument?
        var summary: String
        /// The cell folders under `baseline/paths/`.
        var baselines: [String]
        var output: String
    }

    private func gate(_ builds: String, _ label: String, strict: Bool = false) throws -> Run {
        let cli = try CLI(label)
        let catalogue = try Self.catalogue(cli)
        let out = cli.directory.file("out")
        let result = cli.run(
            [
                "gate", "--builds", builds, "--scenarios", "reinstall-self", "--case-id", "e2e", "--jobs", "2", "--quiet",
                "--out", out,
            ]
                + (strict ? ["--strict"] : []),
            environment: ["UPGRADE_RUNNER_BUILDS": catalogue])
        let paths = (try? FileManager.default.contentsOfDirectory(atPath: out + "/baseline/paths")) ?? []
        let baselines = paths.sorted().flatMap { path in
            ((try? FileManager.default.contentsOfDirectory(atPath: out + "/baseline/paths/" + path)) ?? []).sorted().map {
                path + "/" + $0
            }
        }
        return Run(
            code: result.code, document: try? GateDocument.read(from: out + "/gate.json"),
            summary: (try? String(contentsOfFile: out + "/summary.md", encoding: .utf8)) ?? "", baselines: baselines,
            output: result.output + result.error)
    }

    @Test(
        "no release ever swept: the release's reinstall-self failure is the previous release's own finding, pre-existing; --strict fails it"
    )
    func neverSwept() throws {
        let run = try gate("never-a,no-reinstall-sweep", "baseline-never")
        let document = try #require(run.document, "\(run.output)")
        #expect(run.code == 0, "\(run.output)")
        let entry = try #require(
            document.report.preExisting?.first { $0.cell == "none-to-no-reinstall-sweep/reinstall-self/reinstall-sweeps" },
            "\(run.output)")
        #expect(entry.shownBy == "none-to-never-a/reinstall-self" && entry.alsoDeciding == nil)
        let pairs = try #require(entry.findings)
        #expect(!pairs.isEmpty && pairs.allSatisfy { $0.finding.key != nil && $0.finding.key == $0.baseline.key })
        #expect(run.baselines == ["none-to-never-a/reinstall-self"])
        let summary = run.summary
        #expect(
            summary.contains("| `none-to-no-reinstall-sweep` | 🔶 PRE-EXISTING |")
                && summary.contains("`none-to-never-a/reinstall-self` has the same finding"))
        #expect(try gate("never-a,no-reinstall-sweep", "baseline-never-strict", strict: true).code == 1)
    }

    @Test("a release that stops sweeping where the previous one swept decides: FAIL, nothing pre-existing")
    func newlyStopsSweeping() throws {
        let run = try gate("v2,no-reinstall-sweep", "baseline-newly")
        let document = try #require(run.document, "\(run.output)")
        #expect(run.code == 1, "\(run.output)")
        #expect(document.report.preExisting == nil)
        #expect(
            document.report.reasons.contains { $0.hasPrefix("none-to-no-reinstall-sweep/reinstall-self/reinstall-sweeps: ") },
            "\(document.report.reasons)")
        // The baseline ran: v2 over itself, which sweeps.
        #expect(run.baselines == ["none-to-v2/reinstall-self"])
    }
}
