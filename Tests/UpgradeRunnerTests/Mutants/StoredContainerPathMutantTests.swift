import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// Issue 38 item 2's known-bad build: stored-container-path finds its migrated session file by the
/// absolute path its migration kept in the preferences. The upgrade moves the data container before
/// the new build's first launch, which stores the path afresh, so every launch on that device reads
/// it; a backup taken after the migration and restored onto a new phone puts the container
/// somewhere else, and the stored path points nowhere: survives-restore catches it there alone
/// (backup-restore, whose backup is taken before the new build runs, passes it).
@Suite("stored-container-path end to end")
struct StoredContainerPathMutantTests {
    @Test("backup-after-migration catches it by survives-restore; upgrade and backup-restore pass it")
    func caughtAfterTheContainerMoves() throws {
        let cli = try CLI("stored-container-path-mutant")
        let builds = try MutantsEndToEndTests.buildsFolder(cli, mutants: ["stored-container-path"])
        let out = cli.directory.file("out")
        let result = cli.run(
            [
                "run", "--from", "v1", "--to", "stored-container-path", "--scenario",
                "upgrade,backup-restore,backup-after-migration", "--case-id", "moved", "--jobs", "2", "--quiet", "--out", out,
            ], environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 1, "\(result.output)\(result.error)")
        let report = try GateDocument.read(from: out + "/" + GateArtifacts.gateFile).report
        let cells = try #require(report.paths.first { $0.path == "v1-to-stored-container-path" }).scenarios
        for scenario in cells {
            #expect(scenario.verdict == (scenario.scenario == .backupAfterMigration ? .fail : .pass), "\(scenario.scenario)")
        }
        let moved = try #require(cells.first { $0.scenario == .backupAfterMigration })
        #expect(moved.conditions.first { $0.condition == .survivesRestore }?.verdict == .fail)
    }
}
