import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// The known-bad builds of issue 26's backup and restore and reinstall over the same build: each is
/// caught by its new scenario's condition and by no other, and a gate without those scenarios passes it.
@Suite("restore-wipes-keychain and sweep-misses-own-marker end to end")
struct RestoreMutantsTests {
    static let mutants = ["restore-wipes-keychain", "sweep-misses-own-marker"]
    static let before =
        "fresh-install,upgrade,skip-version,relaunch,malformed,crash-points,reinstall,marker-without-data,isolation,cleanup"

    @Test("each is caught by its expected condition alone with backup-restore and reinstall-self; v1, v2 PASS")
    func caught() throws {
        let cli = try CLI("mutants-restore")
        let builds = try MutantsEndToEndTests.buildsFolder(cli, mutants: Self.mutants)
        let result = cli.run(
            [
                "mutants", "--builds", "v1,v2", "--scenarios", Self.before + ",backup-restore,reinstall-self", "--case-id", "e2e",
                "--jobs", "2",
                "--out", cli.directory.file("out"),
            ], environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        #expect(
            MutantsEndToEndTests.row(result.output, "restore-wipes-keychain")?.hasSuffix(
                "| `survives-restore` | `survives-restore` | yes |") == true, "\(result.output)")
        #expect(
            MutantsEndToEndTests.row(result.output, "sweep-misses-own-marker")?.hasSuffix(
                "| `reinstall-sweeps` | `reads-old-data`, `reinstall-sweeps` | yes |") == true, "\(result.output)")
        #expect(result.output.contains("Released builds v1, v2: PASS."))
    }

    @Test("without backup-restore and reinstall-self, both pass")
    func notCaughtBefore() throws {
        let cli = try CLI("mutants-restore-before")
        let builds = try MutantsEndToEndTests.buildsFolder(cli, mutants: Self.mutants)
        let result = cli.run(
            [
                "mutants", "--builds", "v1,v2", "--scenarios", Self.before, "--case-id", "e2e", "--jobs", "2", "--out",
                cli.directory.file("out"),
            ],
            environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 1)
        for id in Self.mutants {
            #expect(MutantsEndToEndTests.row(result.output, id)?.hasSuffix("| — | no |") == true, "\(id): \(result.output)")
        }
    }
}
