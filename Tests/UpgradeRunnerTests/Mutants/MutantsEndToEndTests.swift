import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
@testable import UpgradeRunner

/// `upgrade-runner mutants` on a few real mutants with a few scenarios, through the command line.
@Suite("The mutants command end to end")
struct MutantsEndToEndTests {
    /// The arguments of one of kept.md's launch lines, as a shell would give them to the runner
    /// (without `upgrade-runner` and the trailing comment).
    static func launchArguments(_ line: some StringProtocol) -> [String] {
        line.components(separatedBy: "   #")[0].split(separator: " ").dropFirst().map(String.init)
    }

    /// `run` from v1 to the known-bad build `mutant` through `scenarios` with `--keep-failed`: the
    /// CLI, the kept folder, the environment naming the builds folder, and the run's result.
    static func keptRun(
        _ name: String, mutant: String, scenarios: String
    ) throws -> (
        cli: CLI, kept: String, environment: [String: String], result: CLI.Result
    ) {
        let cli = try CLI(name)
        let environment = ["UPGRADE_RUNNER_BUILDS": try buildsFolder(cli, mutants: [mutant])]
        let kept = cli.directory.file("kept")
        let result = cli.run(
            [
                "run", "--from", "v1", "--to", mutant, "--scenario", scenarios, "--case-id", "keep", "--keep-failed", kept,
                "--out", cli.directory.file("out"), "--quiet",
            ],
            environment: environment)
        return (cli, kept, environment, result)
    }

    /// A builds folder holding the repository's v1 and v2 and the named mutants (links, not copies),
    /// plus, when asked, `control`: v2's executable relabelled as a mutant, which nothing should catch.
    static func buildsFolder(_ cli: CLI, mutants: [String], control: Bool = false) throws -> String {
        let manager = FileManager.default
        let folder = cli.directory.file("catalogue")
        try manager.createDirectory(atPath: folder + "/mutants", withIntermediateDirectories: true)
        for id in ["v1", "v2"] {
            try manager.createSymbolicLink(atPath: folder + "/" + id, withDestinationPath: RunFolders.repositoryBuilds + "/" + id)
        }
        for id in mutants {
            try manager.createSymbolicLink(
                atPath: folder + "/mutants/" + id,
                withDestinationPath: RunFolders.repositoryBuilds + "/mutants/" + id)
        }
        if control {
            let build = folder + "/mutants/control"
            try manager.createDirectory(atPath: build, withIntermediateDirectories: true)
            try manager.copyItem(
                atPath: RunFolders.repositoryBuilds + "/v2/Ledger.entitlements", toPath: build + "/Ledger.entitlements")
            let manifest =
                #"{"id": "control", "bundleID": "com.example.ledger", "marketingVersion": "2.1", "buildNumber": "210", "executable": "LedgerV2", "schemaVersion": 2, "entitlements": "Ledger.entitlements", "standIn": true, "antiPattern": "none: v2 relabelled", "expectedCondition": "reads-old-data"}"#
            try Data(manifest.utf8).write(to: URL(fileURLWithPath: build + "/build.json"))
        }
        return folder
    }

    static func row(_ output: String, _ id: String) -> String? {
        output.split(separator: "\n").map(String.init).first { $0.hasPrefix("| `\(id)` |") }
    }

    @Test("secret-in-log, accessible-in-query and no-reinstall-sweep are caught by their conditions; v2 relabelled is not")
    func caughtAndControl() throws {
        let cli = try CLI("mutants")
        let builds = try Self.buildsFolder(cli, mutants: ["secret-in-log", "accessible-in-query", "no-reinstall-sweep"])
        let words = [
            "mutants", "--builds", "v1,v2", "--scenarios", "fresh-install,upgrade,reinstall", "--case-id", "e2e",
            "--jobs", "2", "--out", cli.directory.file("out"),
        ]
        let result = cli.run(words, environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        #expect(
            Self.row(result.output, "secret-in-log")?.hasSuffix("| `no-secret-in-artifacts` | `no-secret-in-artifacts` | yes |")
                == true)
        #expect(Self.row(result.output, "accessible-in-query")?.contains("| `reads-old-data` | `reads-old-data` | yes |") == true)
        #expect(
            Self.row(result.output, "no-reinstall-sweep")?.hasSuffix(
                "| `reinstall-sweeps` | `reads-old-data`, `reinstall-sweeps` | yes |") == true,
            "the final re-read after the reinstall reads the old session too")
        #expect(result.output.contains("Caught 3 of 3 mutants by their expected condition (100%)."))
        #expect(result.output.contains("Released builds v1, v2: PASS."))
        let out = cli.directory.file("out")
        for file in [
            "mutants.json", "mutants.md", "released/gate.json", "secret-in-log/v1-to-secret-in-log/gate.json",
            "secret-in-log/none-to-secret-in-log/summary.md",
        ] {
            #expect(FileManager.default.fileExists(atPath: out + "/" + file), "\(file)")
        }
        let summary = try JSONDecoder().decode(
            MutantsSummary.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/mutants.json")))
        #expect(summary.mutants.map(\.id) == ["accessible-in-query", "no-reinstall-sweep", "secret-in-log"])

        // The same run with a build that carries no anti-pattern: it escapes, so the command fails; the
        // earlier mutants run in --out is replaced, as a rerun expects.
        let other = try CLI("mutants-control")
        let withControl = try Self.buildsFolder(other, mutants: ["secret-in-log"], control: true)
        let escaped = cli.run(words, environment: ["UPGRADE_RUNNER_BUILDS": withControl])
        #expect(escaped.code == 1)
        // v2 relabelled is no longer v2's equal: its status files name build v2, not the build launched.
        #expect(Self.row(escaped.output, "control")?.hasSuffix("| `reads-old-data` | `honest-status` | no |") == true)
        #expect(escaped.output.contains("Caught 1 of 2 mutants"))
    }

    @Test("delete-before-write is caught by crash-safe when a keychain write fails")
    func deleteBeforeWrite() throws {
        let cli = try CLI("mutants-crash")
        let builds = try Self.buildsFolder(cli, mutants: ["delete-before-write"])
        let result = cli.run(
            [
                "mutants", "--builds", "v1,v2", "--scenarios", "write-failure", "--case-id", "e2e",
                "--jobs", "2", "--out", cli.directory.file("out"),
            ], environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        let row = try #require(Self.row(result.output, "delete-before-write"))
        #expect(row.contains("| `crash-safe` |") && row.hasSuffix("yes |"))
    }

    @Test(
        "a failing known-bad build's summary shows the timeline of a failing crash point: the numbered operations, where each secret was after each, the crash, the recovery"
    )
    func timelineOfFailingAttempt() throws {
        let cli = try CLI("mutants-timeline")
        let builds = try Self.buildsFolder(cli, mutants: ["delete-before-write"])
        let out = cli.directory.file("out")
        let result = cli.run(
            ["mutants", "--builds", "v1,v2", "--scenarios", "crash-points", "--case-id", "timeline", "--out", out],
            environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 0, "\(result.output)\(result.error)")
        let folder = out + "/delete-before-write/v1-to-delete-before-write"
        let summary = try String(contentsOfFile: folder + "/summary.md", encoding: .utf8)
        let section = try #require(summary.components(separatedBy: "### Timelines").dropFirst().first, Comment(rawValue: summary))
        let body = section.components(separatedBy: "\n### ").first ?? section
        #expect(body.contains(", attempt `crash "), "\(body)")
        #expect(body.contains("✂ killed right after mutation"), "\(body)")
        #expect(body.contains("(mutation 1) → authToken: "), "where each secret was after the first mutation: \(body)")
        #expect(body.contains("where after the crash: "), "\(body)")
        #expect(body.contains("-launch: exited with status 0"), "the recovery launch: \(body)")
        let shownLines = body.split(separator: "\n").filter { line in !line.hasPrefix("`") && !line.isEmpty }
        #expect(
            shownLines.count <= Timeline.summaryLineLimit + 8, "at most 50 timeline lines in the summary: \(shownLines.count)")
        let document = try GateDocument.read(from: folder + "/gate.json")
        let timelines = try #require(document.report.timelines)
        #expect(timelines.allSatisfy { $0.cell.hasSuffix("/crash-points") && $0.attempt != nil })
        #expect(timelines.count > 1, "every failing attempt's timeline is in gate.json")
        // Names and places only: the case's secrets appear in no form.
        #expect(try SecretScanner.scan(data: Data(summary.utf8), secrets: GatePipeline.sampleSecrets(caseID: "timeline")).isEmpty)
    }

    @Test(
        "--keep-failed keeps a failing cell's device and the one before the new build's first launch (0700), every device verb works on them, and kept.md's launch lines run; a passing cell keeps nothing; a folder that is not empty is refused first"
    )
    func keepFailed() throws {
        let (cli, kept, environment, result) = try Self.keptRun(
            "keep-failed", mutant: "accessible-in-query", scenarios: "upgrade,entitlements")
        #expect(result.code == 1, "\(result.output)\(result.error)")
        #expect(result.output.contains("### Kept devices"), "the summary says where the devices are: \(result.output)")
        var info = stat()
        #expect(stat(kept, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let index = try String(contentsOfFile: kept + "/" + KeptDevices.indexFile, encoding: .utf8)
        let device = "v1-to-accessible-in-query-upgrade"
        #expect(index.contains("## `v1-to-accessible-in-query/upgrade`"), "\(index)")
        #expect(!index.contains("entitlements`"), "a passing cell keeps nothing: \(index)")
        let listed = cli.run(["device", "list", "--devices-root", kept], environment: environment)
        #expect(listed.output.contains(device + " ") || listed.output.contains(device + "\n"), "\(listed.output)")
        #expect(listed.output.contains(device + "-before"), "\(listed.output)")
        #expect(cli.run(["keychain", "--devices-root", kept, device, "dump"], environment: environment).code == 0)
        // The first launch line, as kept.md gives it, on the device before the launches.
        let line = try #require(index.split(separator: "\n").first { $0.hasPrefix("upgrade-runner launch ") })
        let words = Self.launchArguments(line)
        #expect(words.contains(device + "-before"), "\(line)")
        let launched = cli.run(words, environment: environment)
        #expect(launched.code == 0, "\(launched.output)\(launched.error)")
        // A folder that is not empty: exit 2 naming the flag, and no run folder made.
        let again = cli.run(
            ["run", "--from", "v1", "--to", "accessible-in-query", "--keep-failed", kept, "--out", cli.directory.file("out2")],
            environment: environment)
        #expect(again.code == 2 && again.error.contains("--keep-failed"), "\(again.error)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.file("out2")))
        // Inside --out: the leak scan would read the devices, and CI would upload them.
        let inside = cli.run(
            [
                "run", "--from", "v1", "--to", "accessible-in-query", "--keep-failed", cli.directory.file("out3/kept"),
                "--out", cli.directory.file("out3"),
            ],
            environment: environment)
        #expect(
            inside.code == 2 && inside.error.contains("--keep-failed") && inside.error.contains("artifacts folder"),
            "\(inside.error)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory.file("out3")))
    }

    @Test(
        "--keep-failed keeps a cell's other device too: the restored phone of backup-after-migration beside the cell's own, with its launches listed under it and runnable on its -before copy"
    )
    func keepFailedKeepsTheRestoredPhone() throws {
        let (cli, kept, environment, result) = try Self.keptRun(
            "keep-failed-restored", mutant: "stored-container-path", scenarios: "backup-after-migration")
        #expect(result.code == 1, "\(result.output)\(result.error)")
        let index = try String(contentsOfFile: kept + "/" + KeptDevices.indexFile, encoding: .utf8)
        let device = "v1-to-stored-container-path-backup-after-migration"
        let listed = cli.run(["device", "list", "--devices-root", kept], environment: environment).output
        for name in [device, device + "-before", device + "-restored", device + "-restored-before"] {
            #expect(listed.contains(name + " ") || listed.contains(name + "\n"), "\(name): \(listed)")
        }
        // Each section's launch lines run on its own -before device: the restored phone's (the new
        // build's launch and verify there) under the restored phone, never under the cell's device.
        let sections = index.components(separatedBy: "\n## ")
        let restored = try #require(sections.first { $0.contains(", device `restored`") }, "\(index)")
        let own = try #require(
            sections.first { $0.hasPrefix("`v1-to-stored-container-path/backup-after-migration`\n") }, "\(index)")
        let restoredLines = restored.split(separator: "\n").filter { $0.hasPrefix("upgrade-runner launch ") }
        #expect(
            restoredLines.count == 2 && restoredLines.allSatisfy { $0.contains(" \(device)-restored-before ") }, "\(restored)")
        #expect(!own.contains(device + "-restored"), "\(own)")
        let words = Self.launchArguments(restoredLines[0])
        let launched = cli.run(words, environment: environment)
        #expect(launched.code == 0, "\(launched.output)\(launched.error)")
    }

    @Test(
        "a leaking artifact is replaced by a note naming the label and encodings; the raw file goes only to --keep-failed, 0600; the run still fails no-secret-in-artifacts"
    )
    func leakRedacted() throws {
        let cli = try CLI("leak-redacted")
        let builds = try Self.buildsFolder(cli, mutants: ["secret-in-log"])
        let out = cli.directory.file("out"), kept = cli.directory.file("kept")
        let result = cli.run(
            [
                "run", "--from", "v1", "--to", "secret-in-log", "--scenario", "upgrade", "--case-id", "leak", "--out", out,
                "--keep-failed", kept, "--quiet",
            ],
            environment: ["UPGRADE_RUNNER_BUILDS": builds])
        #expect(result.code == 1, "\(result.output)\(result.error)")
        let document = try GateDocument.read(from: out + "/gate.json")
        let leaked = document.report.allFindings.filter { $0.condition == .noSecretInArtifacts && $0.verdict == .fail }
        let file = try #require(leaked.first?.item, "the leak is a finding")
        #expect(leaked.first?.message.contains("(authToken") == true)
        let secrets =
            GatePipeline.secrets(caseID: "leak", builds: [])
            + GatePipeline.sampleSecrets(caseID: "leak")
        #expect(try SecretScanner.scan(directory: out, secrets: secrets).leaks.isEmpty, "nothing under --out holds a secret")
        let note = try String(contentsOfFile: out + "/" + file, encoding: .utf8)
        #expect(note.hasPrefix("upgrade-runner replaced this file: the leak scan found in it secret #"), "\(note)")
        #expect(note.contains("(authToken of case leak") && note.contains(") as raw"), "\(note)")
        let raw = kept + "/leaked/" + file
        var info = stat()
        #expect(stat(raw, &info) == 0 && info.st_mode & 0o777 == 0o600, "the raw file is kept, 0600")
        #expect(note.contains(raw))
        #expect(try !SecretScanner.scan(data: Data(contentsOf: URL(fileURLWithPath: raw)), secrets: secrets).isEmpty)
    }
}
