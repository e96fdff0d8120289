import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
@testable import UpgradeRunner

/// The known-bad builds of keeps-availability, the malformed matrix and the reinstall's hard items:
/// each is caught by its expected condition and by no other, while the released builds PASS.
@Suite("availability-narrowed, malformed-stops-migration and sweep-generic-only end to end")
struct AvailabilityMutantsTests {
    static let mutants = ["availability-narrowed", "malformed-stops-migration", "sweep-generic-only"]

    @Test("each is caught only by its expected condition; v1 and v2 PASS")
    func caughtOnlyByItsCheck() throws {
        let cli = try CLI("mutants-availability")
        let builds = try MutantsEndToEndTests.buildsFolder(cli, mutants: Self.mutants)
        let result = cli.run(
            [
                "mutants", "--builds", "v1,v2", "--scenarios",
                "upgrade,relaunch,malformed,reinstall,marker-without-data,isolation,cleanup,locked-reads",
                "--case-id", "e2e", "--jobs", "2", "--out", cli.directory.file("out"),
            ], environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        for (id, condition) in [
            ("availability-narrowed", "keeps-availability"), ("malformed-stops-migration", "malformed-keeps-old"),
            ("sweep-generic-only", "reinstall-sweeps"),
        ] {
            // The failed column holds the expected condition alone: no older check catches the build.
            #expect(
                MutantsEndToEndTests.row(result.output, id)?.hasSuffix("| `\(condition)` | `\(condition)` | yes |") == true,
                "\(id)")
        }
        #expect(result.output.contains("Released builds v1, v2: PASS."))
    }

    @Test("without locked-reads, availability-narrowed passes every other scenario of the gate")
    func notCaughtBefore() throws {
        let cli = try CLI("mutants-availability-before")
        let builds = try MutantsEndToEndTests.buildsFolder(cli, mutants: ["availability-narrowed"])
        let result = cli.run(
            [
                "mutants", "--builds", "v1,v2", "--scenarios", "upgrade,relaunch,malformed,reinstall,prewarm,locked-background",
                "--case-id", "e2e", "--jobs", "2", "--out", cli.directory.file("out"),
            ], environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 1)
        #expect(
            MutantsEndToEndTests.row(result.output, "availability-narrowed")?.hasSuffix("| `keeps-availability` | — | no |")
                == true,
            "\(result.output)")
    }

    @Test("v1, v2 and v3 PASS locked-reads, the malformed matrix and the reinstall with hard items")
    func releasedPass() throws {
        let cli = try CLI("gate-availability")
        let out = cli.directory.file("out")
        let result = cli.run(
            [
                "gate", "--scenarios", "malformed,reinstall,locked-reads", "--case-id", "e2e", "--jobs", "2", "--out", out,
                "--quiet",
            ],
            environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        for path in ["v1-to-v2", "v1-to-v3", "v2-to-v3"] {
            let attempts = try FileManager.default.contentsOfDirectory(atPath: "\(out)/paths/\(path)/malformed/attempts").sorted()
            #expect(attempts == (path == "v2-to-v3" ? ["authToken", "session"] : ["authToken", "refreshToken", "session"]))
            let statuses = try FileManager.default.contentsOfDirectory(atPath: "\(out)/paths/\(path)/locked-reads/status")
            #expect(statuses.count == 4)
        }
    }
}
