import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// `gate --runtimes`: the plan (every unit on each runtime, shards dealt across runtimes), the names
/// (`iOS-15.0/v1-to-v2`), and real matrix gates of the Ledger builds: a passing one with a verdict per
/// runtime that replays identically and merges from shards to the same gate.json, and a failing one
/// whose findings name the runtime that answered each code.
@Suite struct RuntimeMatrixTests {
    static let three = [RuntimeVersion(major: 12, minor: 4), RuntimeVersion(major: 15), RuntimeVersion(major: 17, minor: 5)]

    static func inputs(runtimes: [RuntimeVersion]?, shard: ShardSpec? = nil) -> RunInputs {
        var inputs = RunInputs(
            builds: ["v1", "v2"], runtime: runtimes?.first ?? .current, caseID: "case-1", scenarios: [.upgrade, .freshInstall],
            buildFiles: ["v1": .init(executable: "aa", entitlements: "bb"), "v2": .init(executable: "cc", entitlements: "dd")],
            runnerVersion: "0.1.0", shard: shard)
        inputs.runtimes = runtimes
        return inputs
    }

    @Test("--runtimes is parsed sorted; a bad entry, a repeat or an empty list is refused naming the flag")
    func parseList() throws {
        #expect(try RuntimeVersion.parseList("iOS 17.5, iOS 12.4,15.0") == Self.three)
        for (text, reason) in [
            ("iOS 17.5,iOS 17.5", "names iOS 17.5 twice"), ("iOS 17.5,,iOS 12.4", "holds \"\""), ("", "holds \"\""),
            ("iOS 17.5,Android 14", "holds \"Android 14\""),
        ] {
            #expect(throws: GateError.self) { try RuntimeVersion.parseList(text) }
            do { _ = try RuntimeVersion.parseList(text) } catch {
                #expect(ExitStatus.report(error).message.hasPrefix("--runtimes: \"\(text)\" \(reason)"), "\(error)")
            }
        }
    }

    @Test(
        "runtime paths round-trip and only an exact slug reads as a runtime",
        arguments: [
            ("v1-to-v2", nil as String?), ("none-to-v3", nil), ("iOS-15.0/v1-to-v2", "iOS 15.0"),
            ("iOS-12.4/none-to-v1", "iOS 12.4"),
        ])
    func runtimePaths(id: String, runtime: String?) throws {
        let path = try #require(RuntimePath(id: id))
        #expect(path.id == id)
        #expect(path.runtime?.description == runtime)
    }

    @Test(
        "a slug that is not exactly a runtime's is no runtime path",
        arguments: ["ios-15.0/v1-to-v2", "iOS-15/v1-to-v2", "x/v1-to-v2"])
    func notRuntimePaths(id: String) {
        #expect(RuntimePath(id: id) == nil)
        #expect(RuntimeVersion(slug: String(id.split(separator: "/")[0])) == nil)
    }

    @Test("a matrix plans every unit once per runtime, under paths/<runtime>/; one runtime plans as before")
    func plan() throws {
        let single = try Self.inputs(runtimes: nil).plan()
        let matrix = try Self.inputs(runtimes: Self.three).plan()
        #expect(matrix.units.count == 3 * single.units.count)
        #expect(single.units.map(\.folder).contains("paths/v1-to-v2/upgrade"))
        #expect(matrix.units.map(\.folder).contains("paths/iOS-12.4/v1-to-v2/upgrade"))
        #expect(matrix.expectedCells(in: nil).contains { $0.path == "iOS-15.0/none-to-v2" })
        #expect(Set(matrix.units.compactMap(\.runtime)) == Set(Self.three))
    }

    @Test("shards of a matrix each hold cells of every runtime, and together every cell once")
    func shards() throws {
        let plan = try Self.inputs(runtimes: Self.three).plan()
        let shards = try (1...2).map { try ShardSpec(index: $0, count: 2) }
        for shard in shards { #expect(Set(plan.units(in: shard).compactMap(\.runtime)) == Set(Self.three)) }
        #expect(shards.flatMap { plan.units(in: $0) }.sorted() == plan.units)
    }

    @Test("run.json whose runtimes are fewer than two, unsorted or repeated is refused naming the field")
    func runtimesField() throws {
        let root = try TemporaryDirectory("runtimes")
        for runtimes in [[Self.three[0]], [Self.three[1], Self.three[0]], [Self.three[0], Self.three[0]]] {
            let path = root.file("run.json")
            try GateJSON.pretty(Self.inputs(runtimes: runtimes)).write(to: URL(fileURLWithPath: path))
            #expect(
                throws: GateError.malformed(
                    path: path, reason: "field \"runtimes\" must list two or more runtimes, oldest first, each once")
            ) {
                try RunInputs.read(from: path)
            }
        }
        let path = root.file("good.json")
        try GateJSON.pretty(Self.inputs(runtimes: Self.three)).write(to: URL(fileURLWithPath: path))
        #expect(try RunInputs.read(from: path).runtimes == Self.three)
    }

    @Test("one runtime in --runtimes, or none, gives byte-identical run.json and gate.json to --runtime")
    func oneRuntimeIsNoMatrix() throws {
        let cli = try CLI()
        let common = [
            "--builds", "v1", "--scenarios", "fresh-install", "--case-id", "one-1", "--builds-dir", RunFolders.repositoryBuilds,
        ]
        let a = cli.directory.file("a"), b = cli.directory.file("b")
        #expect(cli.run(["gate", "--runtime", "iOS 15.0", "--out", a] + common).code == 0)
        #expect(cli.run(["gate", "--runtimes", "iOS 15.0", "--out", b] + common).code == 0)
        for file in ["run.json", "gate.json", "junit.xml", "summary.md"] {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: a + "/" + file))
                    == Data(contentsOf: URL(fileURLWithPath: b + "/" + file)))
        }
        #expect(!(try String(contentsOfFile: a + "/gate.json", encoding: .utf8)).contains("runtime" + "Verdicts"))
        cli.expectRefused(
            ["gate", "--runtime", "iOS 15.0", "--runtimes", "iOS 12.4,iOS 15.0", "--out", cli.directory.file("c")] + common,
            naming: "--runtimes: \"iOS 12.4,iOS 15.0\" cannot be given with --runtime")
    }

    @Test("a matrix gate of v1-v3 passes on each runtime; artifacts and junit name the runtime; replay is identical")
    func ledgerMatrix() throws {
        let cli = try CLI()
        let out = cli.directory.file("matrix")
        let gate = cli.run(
            [
                "gate", "--runtimes", "iOS 12.4,iOS 15.0,iOS 17.5", "--scenarios",
                "fresh-install,upgrade,skip-version,entitlements",
                "--case-id", "matrix-1", "--out", out, "--builds-dir", RunFolders.repositoryBuilds, "--quiet",
            ])
        #expect(gate.code == 0, "\(gate.output)\(gate.error)")
        let report = try GateDocument.read(from: out + "/gate.json")
        #expect(report.runtimes == Self.three)
        let verdicts = try #require(report.report.runtimeVerdicts)
        #expect(verdicts.map(\.runtime) == Self.three)
        #expect(verdicts.allSatisfy { $0.verdict == .pass && $0.passed == 11 && $0.failed == 0 })
        #expect(report.report.paths.count == 21)
        for finding in report.report.allFindings {
            let runtime = try #require(RuntimePath(id: finding.path ?? "")?.runtime, "\(finding)")
            if let answered = finding.runtime { #expect(answered == runtime) }
        }
        let status = out + "/paths/iOS-12.4/v1-to-v2/upgrade/status"
        let files = try FileManager.default.contentsOfDirectory(atPath: status).sorted()
        try #require(!files.isEmpty)
        #expect(try String(contentsOfFile: status + "/" + files[0], encoding: .utf8).contains("iOS 12.4"))
        let junit = try String(contentsOfFile: out + "/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"<testsuite name="iOS-15.0/v1-to-v3""#))
        #expect(junit.contains(#"<testsuite name="iOS-15.0/v1-to-v2-to-v3""#), "the default route, on each runtime")
        #expect(junit.contains(#"<property name="runtime" value="iOS 15.0"/>"#))
        let summary = try String(contentsOfFile: out + "/summary.md", encoding: .utf8)
        #expect(summary.contains("| iOS 12.4 | ✅ PASS | 11 | 0 | 0 |"))

        let replay = cli.run(["replay", out, "--builds-dir", RunFolders.repositoryBuilds])
        #expect(replay.code == 0, "\(replay.output)\(replay.error)")
        #expect(replay.output == "identical\n")
    }

    @Test("shards of an archived matrix gate merge to the unsharded gate's verdict files, byte for byte, and replay alone")
    func mergedShards() throws {
        let cli = try CLI()
        let common = [
            "--runtimes", "iOS 12.4,iOS 17.5", "--builds", "v1,v2", "--scenarios", "fresh-install,upgrade", "--case-id",
            "matrix-2", "--archive-inputs", "--builds-dir", RunFolders.repositoryBuilds, "--quiet",
        ]
        let whole = cli.directory.file("whole")
        #expect(cli.run(["gate", "--out", whole] + common).code == 0)
        let shards = (1...3).map { cli.directory.file("shard-\($0)") }
        for (index, folder) in shards.enumerated() {
            #expect(cli.run(["gate", "--shard", "\(index + 1)/3", "--out", folder] + common).code == 0)
        }
        let merged = cli.directory.file("merged")
        let merge = cli.run(["merge"] + shards + ["--out", merged])
        #expect(merge.code == 0, "\(merge.error)")
        for file in ["run.json", "gate.json", "junit.xml", "summary.md"] {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: whole + "/" + file))
                    == Data(contentsOf: URL(fileURLWithPath: merged + "/" + file)),
                "\(file)")
        }
        #expect(try StatusComparison.compare(archived: whole, replay: merged).isIdentical)
        // The merged folder carries the shards' archived inputs and replays from them alone.
        let replay = cli.run(cli.replayAlone(merged))
        #expect(replay.code == 0, "\(replay.output)\(replay.error)")
        #expect(replay.output == "identical\n")
        #expect(try StatusComparison.statusFiles(in: merged).contains { $0.hasPrefix("paths/iOS-17.5/v1-to-v2/upgrade/status/") })
    }

    @Test("a failing matrix names, in every finding with a code, the runtime that answered it")
    func failingMatrix() throws {
        let cli = try CLI()
        let out = cli.directory.file("transfer")
        let gate = cli.run(
            [
                "gate", "--builds", "v3,v4-transfer", "--scenarios", "upgrade", "--runtimes", "iOS 12.4,iOS 17.5", "--case-id",
                "matrix-3", "--out", out, "--builds-dir", RunFolders.repositoryBuilds, "--quiet",
            ])
        #expect(gate.code == 1, "\(gate.error)")
        let report = try GateDocument.read(from: out + "/gate.json").report
        #expect(report.runtimeVerdicts?.map(\.verdict) == [.fail, .fail])
        let coded = report.allFindings.filter { $0.status != nil && $0.verdict == .fail }
        for runtime in ["iOS 12.4", "iOS 17.5"] {
            let here = coded.filter { $0.runtime?.description == runtime }
            #expect(!here.isEmpty, "\(runtime)")
            #expect(
                here.allSatisfy {
                    $0.path!.hasPrefix(RuntimeVersion(runtime)!.slug + "/") && $0.message.contains("on \(runtime)")
                })
        }
        #expect(gate.output.contains("--runtime \"iOS 12.4\""))
    }
}
