import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// The repository's builds/ folder (the sample Ledger builds).
let sampleBuilds = BuiltProducts.repositoryBuilds

@Suite("Running paths end to end on the sample builds")
struct RunPathTests {
    private func run(_ cli: CLI, _ words: [String], out: String) -> CLI.Result {
        cli.run(words + ["--out", out, "--jobs", "2"], environment: ["UPGRADE_RUNNER_BUILDS": sampleBuilds])
    }

    /// Every status file under `folder`, by relative path.
    private func statusFiles(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for case let relative as String in FileManager.default.enumerator(atPath: folder) ?? .init()
        where relative.contains("/status/") && relative.hasSuffix(".json") {
            files[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
        }
        return files
    }

    @Test("v1 to v2 passes its scenarios, leaks no secret, and the same inputs give byte-identical status files")
    func upgradePasses() throws {
        let cli = try CLI("run")
        let scenarios = "upgrade,relaunch,malformed,reinstall,stale-leftovers,cleanup,isolation,artefact-window"
        let first = run(
            cli, ["run", "--from", "v1", "--to", "v2", "--scenario", scenarios, "--case-id", "same"], out: cli.directory.file("a")
        )
        #expect(first.code == 0, "\(first.error)")
        #expect(first.output.contains("Upgrade gate: ✅ PASS"))
        let second = run(
            cli, ["run", "--from", "v1", "--to", "v2", "--scenario", scenarios, "--case-id", "same"], out: cli.directory.file("b")
        )
        #expect(second.code == 0)
        let a = statusFiles(cli.directory.file("a")), b = statusFiles(cli.directory.file("b"))
        #expect(a.count > 20)
        #expect(a == b)
        // No secret of the case in any status file, in any encoding (the gate's own scan, repeated here).
        let secrets = GatePipeline.sampleSecrets(caseID: "same")
        for (name, data) in a {
            #expect(try SecretScanner.scan(data: data, secrets: secrets).isEmpty, "\(name)")
        }
        for name in ["run.json", "gate.json", "junit.xml", "summary.md", "timings.json"] {
            #expect(FileManager.default.fileExists(atPath: cli.directory.file("a/" + name)), "\(name)")
        }
    }

    @Test("a downgrade from v2 to v1 fails reads-old-data, names the item and the OSStatus, and keeps a redacted device snapshot")
    func downgradeFails() throws {
        let cli = try CLI("run")
        let out = cli.directory.file("out")
        let result = run(cli, ["run", "--from", "v2", "--to", "v1", "--case-id", "down"], out: out)
        #expect(result.code == 1)
        let gate = try String(contentsOfFile: out + "/gate.json", encoding: .utf8)
        #expect(gate.contains("\"verdict\" : \"FAIL\""))
        #expect(gate.contains("authToken"))
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<failure"))
        let snapshot = out + "/paths/v2-to-v1/upgrade/device/snapshot.json"
        #expect(FileManager.default.fileExists(atPath: snapshot))
        let secrets = GatePipeline.sampleSecrets(caseID: "down")
        #expect(try SecretScanner.scan(directory: out, secrets: secrets).leaks.isEmpty)
    }

    @Test("crash points on v1 to v2: every crash point and pair is explored and recorded in attempts.json")
    func crashPoints() throws {
        let cli = try CLI("run")
        let out = cli.directory.file("out")
        let result = run(
            cli, ["run", "--from", "v1", "--to", "v2", "--scenario", "crash-points", "--case-id", "crash"], out: out)
        #expect(result.code == 0, "\(result.output)")
        let data = try #require(FileManager.default.contents(atPath: out + "/paths/v1-to-v2/crash-points/attempts.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let attempts = try #require(document["attempts"] as? [[String: Any]])
        let ids = attempts.compactMap { $0["id"] as? String }
        #expect(ids.first == "baseline")
        #expect(ids.contains("crash 1") && ids.contains("crash 1 then 1"))
        #expect(attempts.allSatisfy { $0["outcome"] as? String == "ok" })
        #expect((document["note"] as? String)?.contains("crash points") == true)
        // A state reached twice is explored once: some pairs are covered by an earlier attempt.
        #expect(attempts.contains { ($0["coveredBy"] as? String).map(ids.contains) == true })
        #expect((document["note"] as? String)?.contains("distinct states") == true)
        // The same inputs give the same coverage (apps run without a per-process hash seed).
        let again = cli.directory.file("again")
        #expect(
            run(cli, ["run", "--from", "v1", "--to", "v2", "--scenario", "crash-points", "--case-id", "crash"], out: again)
                .code == 0)
        #expect(FileManager.default.contents(atPath: again + "/paths/v1-to-v2/crash-points/attempts.json") == data)
    }
}
