import Foundation
import GateModel
import GateTestSupport
import Testing

@testable import GateExecution

/// The gate's inputs beyond the one seed at one date (issue 26): the seed's variants without each
/// incidental store, and the upgrade a year or more after the seed. Each known-bad build of the
/// class passes the plain upgrade and fails its scenario.
@Suite("The gate's inputs: seed variants and the late upgrade")
struct GateInputsTests {
    /// Runs `upgrade-runner run` from v1 to `build` for `scenario`; its exit code and report.
    private func run(_ cli: CLI, _ build: String, _ scenario: Scenario) throws -> (code: Int32, report: GateReport, out: String) {
        let out = cli.directory.file("\(build)-\(scenario)")
        let result = cli.run(
            ["run", "--from", "v1", "--to", build, "--scenario", scenario.rawValue, "--case-id", "gi", "--out", out, "--quiet"],
            environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        let report = try GateDocument.read(from: out + "/gate.json").report
        return (result.code, report, out)
    }

    @Test("seed-variants: v2 keeps every secret without each store v1's seed wrote that holds none; variants.json names them")
    func variantsOfV1() throws {
        let cli = try CLI("variants")
        let (code, report, out) = try run(cli, "v2", .seedVariants)
        #expect(code == 0, "\(report.allFindings)")
        let document = try JSONSerialization.jsonObject(
            with: try Data(contentsOf: URL(fileURLWithPath: out + "/paths/v1-to-v2/seed-variants/variants.json")))
        let variants = (document as? [String: Any])?["variants"] as? [String]
        #expect(
            variants == [
                "1: without file Documents/FeedCache.dat", "2: without file Documents/Preferences.plist",
                "3: without file Documents/SessionCache.archive",
            ])
        let reads = report.allFindings.filter { $0.condition == .readsOldData }
        #expect(reads.map(\.verdict) == [.pass])
        #expect(reads.first?.message.contains("held on each of 3 variant(s)") == true, "\(reads)")
        // Each variant's launches are filed in its own folder.
        #expect(FileManager.default.fileExists(atPath: out + "/paths/v1-to-v2/seed-variants/variants/2/status/03-v2-verify.json"))
    }

    @Test("settings-gated-migration: passes the upgrade, fails seed-variants without the settings file alone")
    func settingsGated() throws {
        let cli = try CLI("variants")
        #expect(try run(cli, "settings-gated-migration", .upgrade).code == 0)
        let (code, report, _) = try run(cli, "settings-gated-migration", .seedVariants)
        #expect(code == 1)
        let failed = report.allFindings.filter { $0.verdict == .fail }
        #expect(!failed.isEmpty)
        #expect(failed.contains { $0.condition == .readsOldData }, "\(failed)")
        #expect(Set(failed.compactMap(\.item)) == ["without file Documents/Preferences.plist"], "\(failed)")
    }

    @Test("sunset-migration: reads old data at the seed's date, loses it in the upgrade a year later")
    func sunset() throws {
        let cli = try CLI("late")
        let upgrade = try run(cli, "sunset-migration", .upgrade).report.allFindings
        #expect(upgrade.filter { $0.condition == .readsOldData }.map(\.verdict) == [.pass])
        let (code, report, _) = try run(cli, "sunset-migration", .lateUpgrade)
        #expect(code == 1)
        let failed = report.allFindings.filter { $0.verdict == .fail && $0.condition == .readsOldData }
        #expect(!failed.isEmpty, "\(report.allFindings)")
        let (v2, _, _) = try run(cli, "v2", .lateUpgrade)
        #expect(v2 == 0)
    }

    @Test(
        "--inputs minimal: no late-upgrade or seed-variants cell and one clock, recorded in run.json; a bad set is exit 2 naming the flag"
    )
    func minimal() throws {
        let cli = try CLI("minimal")
        let out = cli.directory.file("minimal")
        let result = cli.run(
            [
                "run", "--from", "v1", "--to", "v2", "--scenario", "upgrade,late-upgrade,seed-variants", "--inputs", "minimal",
                "--case-id", "gi", "--out", out, "--quiet",
            ], environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(result.code == 0, "\(result.error)")
        let inputs = try RunInputs.read(from: out + "/run.json")
        #expect(inputs.inputSet == .minimal)
        #expect(inputs.scenarios == [.upgrade])
        #expect(!FileManager.default.fileExists(atPath: out + "/paths/v1-to-v2/upgrade/clock-shifted"))
        let report = try GateDocument.read(from: out + "/gate.json").report
        #expect(report.inputs?.map(\.cell) == ["v1-to-v2/upgrade"])
        #expect(report.inputs?.first?.launches == 3)
        #expect(report.inputs?.first?.clocks == nil)
        let summary = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        #expect(summary.contains("### Inputs"))
        #expect(summary.contains("| `v1-to-v2` | 1 | 3 | +0 d | — |"), "\(summary)")

        let bad = cli.run(["run", "--from", "v1", "--to", "v2", "--inputs", "some", "--out", cli.directory.file("bad")])
        #expect(bad.code == 2)
        #expect(bad.error.contains("--inputs"), "\(bad.error)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.file("bad")))
    }
}
