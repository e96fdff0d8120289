import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
@testable import UpgradeRunner

/// `merge DIR... --out DIR` through the command line, on shard folders written without running apps.
@Suite struct MergeCommandTests {
    /// Writes shard `index` of `count` of `inputs` into the test folder and returns it.
    private func shard(_ index: Int, of count: Int, _ cli: CLI, inputs base: RunInputs = SampleGate.inputs()) throws -> String {
        var inputs = base
        inputs.shard = try ShardSpec(index: index, count: count)
        let folder = cli.directory.file("shard-\(index)-of-\(count)-\(inputs.caseID)")
        try RunFolders.write(inputs, at: folder)
        return folder
    }

    @Test("every shard: PASS, exit 0, the verdict table printed, and every shard's paths/ copied into --out")
    func complete() throws {
        let cli = try CLI()
        let folders = try (1...3).map { try shard($0, of: 3, cli) }
        let out = cli.directory.file("merged")
        let result = cli.run(["merge"] + folders + ["--out", out])
        #expect(result.code == 0, "\(result.error)")
        #expect(result.output.hasPrefix("## Upgrade gate: ✅ PASS"))
        #expect(result.output == (try String(contentsOfFile: out + "/summary.md", encoding: .utf8)))
        let copied = try StatusComparison.statusFiles(in: out)
        let expected = try folders.map { try StatusComparison.statusFiles(in: $0) }.reduce(Set()) { $0.union($1) }
        let units = try SampleGate.inputs().plan().units.count
        #expect(copied == expected && copied.count == units)
    }

    @Test("a missing shard: UNKNOWN, exit 3, the shard named")
    func missingShard() throws {
        let cli = try CLI()
        let folders = try [1, 3].map { try shard($0, of: 3, cli) }
        let result = cli.run(["merge"] + folders + ["--out", cli.directory.file("merged")])
        #expect(result.code == 3)
        #expect(result.output.contains("shard 2/3 is missing"))
    }

    @Test("shards made from different inputs are refused naming the folder; nothing is written")
    func differentInputs() throws {
        let cli = try CLI()
        var other = SampleGate.inputs()
        other.caseID = "case-8"
        let one = try shard(1, of: 2, cli), two = try shard(2, of: 2, cli, inputs: other)
        let out = cli.directory.file("merged")
        cli.expectRefused(["merge", one, two, "--out", out], naming: "\(two): made from other inputs than the first shard")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("shards of different counts, a repeated shard, a missing run.json or a shared cell folder are refused")
    func otherBadShards() throws {
        let cli = try CLI()
        let one = try shard(1, of: 2, cli)
        let out = cli.directory.file("merged")
        let ofThree = try shard(2, of: 3, cli)
        cli.expectRefused(["merge", one, ofThree, "--out", out], naming: "\(ofThree): is shard 2/3")
        cli.expectRefused(["merge", one, one, "--out", out], naming: "\(one): repeats shard 1/2")
        cli.expectRefused(["merge", one, cli.directory.file("nope"), "--out", out], naming: cli.directory.file("nope/run.json"))
        let two = try shard(2, of: 2, cli)
        let stray = two + "/paths/none-to-v1/fresh-install"
        try FileManager.default.createDirectory(atPath: stray, withIntermediateDirectories: true)
        cli.expectRefused(["merge", one, two, "--out", out], naming: "\(two): holds paths/none-to-v1/fresh-install")
        cli.expectRefused(["merge", one, two], naming: "merge: option --out is required")
        // The merged run inside a shard (or a shard inside it) would replace the shard's own files.
        cli.expectRefused(["merge", one, two, "--out", one + "/merged"], naming: "--out")
        cli.expectRefused(["merge", one, two, "--out", cli.directory.path], naming: "is, is inside or holds the shard folder")
    }

    @Test("--out holding a run and files that are not a run's is refused unless --force, which replaces the run")
    func outInUse() throws {
        let cli = try CLI()
        let folders = try (1...2).map { try shard($0, of: 2, cli) }
        let out = cli.directory.file("merged")
        var other = SampleGate.inputs()
        other.caseID = "earlier"
        try RunFolders.write(other, at: out)
        try Data("x".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        cli.expectRefused(["merge"] + folders + ["--out", out], naming: "\(out): holds files that are not a run's (notes.txt)")
        let forced = cli.run(["merge"] + folders + ["--out", out, "--force"])
        #expect(forced.code == 0, "\(forced.error)")
        #expect(try RunInputs.read(from: out + "/run.json").caseID == "case-7")
    }
}
