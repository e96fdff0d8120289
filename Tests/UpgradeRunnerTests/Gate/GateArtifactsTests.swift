import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// A small gate with one of everything: a PASS path, a FAIL, an UNKNOWN (a cell that never ran),
/// a whole-run leak and an incomplete reason.
enum SampleGate {
    static let runtime = RuntimeVersion(major: 17, minor: 5)

    static func inputs(shard: ShardSpec? = nil) -> RunInputs {
        RunInputs(
            builds: ["v1", "v2"], runtime: runtime, caseID: "case-7",
            scenarios: [.freshInstall, .upgrade, .relaunch],
            buildFiles: [
                "v1": .init(executable: String(repeating: "1", count: 64), entitlements: String(repeating: "2", count: 64)),
                "v2": .init(executable: String(repeating: "3", count: 64), entitlements: String(repeating: "4", count: 64)),
            ],
            runnerVersion: "0.1.0", shard: shard)
    }

    static func findings(for cells: [GateCell]) -> [GateFinding] {
        var findings: [GateFinding] = []
        for cell in cells {
            if cell.path == "v1-to-v2" && cell.scenario == .relaunch && cell.condition == .idempotent { continue }
            if cell.path == "v1-to-v2" && cell.scenario == .upgrade && cell.condition == .readsOldData {
                findings.append(
                    GateFinding(
                        .readsOldData, path: cell.runtimePath, scenario: cell.scenario, item: "refreshToken", verdict: .fail,
                        operation: "SecItemCopyMatching", status: -25300, runtime: runtime, detail: "",
                        message: GateFinding.describe(
                            item: "refreshToken", operation: "SecItemCopyMatching", status: -25300, runtime: runtime,
                            detail:
                                "seeded in preferences by v1, found in neither the keychain nor preferences <after> \"migration\" & | sweep",
                            statusText: GateFinding.statusText)))
                continue
            }
            findings.append(
                GateFinding(cell.condition, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass, detail: "checked"))
        }
        findings.append(
            GateFinding(
                .noSecretInArtifacts, path: nil, scenario: nil, item: "run.json", verdict: .fail,
                detail: "holds secret #2 (authToken) as base64"))
        return findings
    }

    static func report() throws -> GateReport {
        let cells = try inputs().plan().expectedCells(in: nil)
        return GateEngine.evaluate(expected: cells, findings: findings(for: cells), incomplete: ["shard 2/2 is missing"])
    }
}

@Suite struct GateArtifactsTests {
    func check(_ text: String, golden name: String) {
        let difference = Golden.compare(text, toFileAt: Golden.folder(of: #filePath) + "/Golden/" + name)
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test(
        "a failed route cell's rerun line is a gate over that route; a pair's stays run --from --to; each writes into its own folder inside the run's"
    )
    func rerunRoute() {
        let cells = [
            GateCell(path: .id("v1-to-v2-to-v3"), scenario: .cleanup, condition: .readsOldData),
            GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .readsOldData),
        ]
        let findings = cells.map {
            GateFinding($0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: .fail, detail: "lost")
        }
        let lines = SummaryWriter.rerunCommands(
            report: GateEngine.evaluate(expected: cells, findings: findings), inputs: SampleGate.inputs(), out: "/runs/a b")
        #expect(
            lines.contains(
                #"upgrade-runner gate --routes 'v1>v2>v3' --scenarios cleanup --case-id case-7 --runtime "iOS 17.5" --out '/runs/a b/rerun-v1-to-v2-to-v3-cleanup'"#
            ),
            "\(lines)")
        #expect(
            lines.contains(
                #"upgrade-runner run --from v1 --to v2 --scenario upgrade --case-id case-7 --runtime "iOS 17.5" --out '/runs/a b/rerun-v1-to-v2-upgrade'"#
            ),
            "\(lines)")
    }

    @Test("summary.md shows at most 50 lines of timelines, in order, and says where the rest are; gate.json holds them all")
    func timelinesCapped() throws {
        var report = try SampleGate.report()
        report.timelines = (1...3).map { n in
            Timeline(cell: "v1-to-v2/crash-points", attempt: "crash \(n)", lines: (1...30).map { "step \(n).\($0)" })
        }
        let summary = SummaryWriter.render(report: report, inputs: SampleGate.inputs(), out: "artifacts/gate")
        let shown = summary.split(separator: "\n").filter { $0.hasPrefix("step ") }
        #expect(shown.count == Timeline.summaryLineLimit)
        #expect(shown.first == "step 1.1" && shown.last == "step 2.20")
        #expect(summary.contains("… 10 more lines"))
        #expect(summary.contains("3 timelines in all (1 not shown here): every one in full in gate.json (`timelines`)"))
        let document = try JSONDecoder().decode(
            GateDocument.self, from: GateArtifacts.gateJSON(report: report, inputs: SampleGate.inputs()))
        #expect(document.report.timelines?.map(\.lines.count) == [30, 30, 30])
    }

    @Test("a store operation's status in a timeline: an OSStatus for the keychain, an errno for files and preferences")
    func operationStatus() throws {
        func entry(_ json: String) throws -> SeamEntry { try JSONDecoder().decode(SeamEntry.self, from: Data(json.utf8)) }
        let keychain = try entry(
            #"{"sequence": 3, "operation": "SecItemAdd", "subject": {"store": "genp", "service": "s", "account": "a"}, "status": -25299, "mutation": 1}"#
        )
        #expect(ExplorationAttempt.describe(keychain) == "#3 SecItemAdd genp s/a -25299 (errSecDuplicateItem) (mutation 1)")
        let file = try entry(
            #"{"sequence": 4, "operation": "file.write", "subject": {"store": "file", "name": "Documents/a"}, "status": 28}"#)
        #expect(ExplorationAttempt.describe(file) == "#4 file.write file Documents/a errno 28 (no space left on device)")
        let done = try entry(
            #"{"sequence": 5, "operation": "preferences.write", "subject": {"store": "preferences", "name": "k"}, "status": 0, "mutation": 2}"#
        )
        #expect(ExplorationAttempt.describe(done) == "#5 preferences.write preferences k 0 (mutation 2)")
    }

    @Test("gate.json is pinned by a golden file")
    func gateJSON() throws {
        check(
            String(decoding: GateArtifacts.gateJSON(report: try SampleGate.report(), inputs: SampleGate.inputs()), as: UTF8.self),
            golden: "gate.json")
    }

    @Test("junit.xml is pinned by a golden file")
    func junit() throws {
        check(GateArtifacts.junitXML(report: try SampleGate.report(), inputs: SampleGate.inputs()), golden: "junit.xml")
    }

    @Test("summary.md is pinned by a golden file")
    func summary() throws {
        check(
            GateArtifacts.summaryMarkdown(report: try SampleGate.report(), inputs: SampleGate.inputs(), out: "artifacts/gate"),
            golden: "summary.md")
    }

    @Test("an all-PASS gate's summary and junit read as passing")
    func passing() throws {
        let inputs = SampleGate.inputs()
        let cells = try inputs.plan().expectedCells(in: nil)
        let report = GateEngine.evaluate(
            expected: cells,
            findings: cells.map {
                GateFinding($0.condition, path: $0.runtimePath, scenario: $0.scenario, verdict: .pass, detail: "ok")
            })
        #expect(report.verdict == .pass)
        check(GateArtifacts.summaryMarkdown(report: report, inputs: inputs, out: "artifacts/gate"), golden: "summary-pass.md")
        let junit = GateArtifacts.junitXML(report: report, inputs: inputs)
        #expect(!junit.contains("<failure") && !junit.contains("<error") && junit.contains(#"failures="0" errors="0""#))
    }

    @Test("UNKNOWN is an <error>, never <skipped>, and FAIL a <failure> with its reason")
    func junitElements() throws {
        let junit = GateArtifacts.junitXML(report: try SampleGate.report(), inputs: SampleGate.inputs())
        #expect(!junit.contains("<skipped"))
        #expect(junit.contains(#"<testcase classname="v1-to-v2" name="relaunch">"#))
        #expect(junit.contains(#"<error type="UNKNOWN" message="idempotent: no finding"#))
        #expect(
            junit.contains(
                #"<failure type="FAIL" message="reads-old-data: refreshToken: SecItemCopyMatching answered -25300 (errSecItemNotFound) on iOS 17.5"#
            ))
        #expect(junit.contains("&lt;after&gt; &quot;migration&quot; &amp;"))
    }

    @Test("gate.json reads back into the same report")
    func roundTrip() throws {
        let dir = try TemporaryDirectory("gatejson")
        let report = try SampleGate.report()
        try GateArtifacts.write(report: report, inputs: SampleGate.inputs(), to: dir.path)
        let document = try GateDocument.read(from: dir.file("gate.json"))
        #expect(document.report == report)
        #expect(document.finished && document.inputsDigest == SampleGate.inputs().digest)
        #expect(GateArtifacts.isFinished(dir.path))
    }

    @Test("two writes of the same report give the same bytes (summary.md's rerun lines name the folder written)")
    func deterministic() throws {
        let one = try TemporaryDirectory("det1"), two = try TemporaryDirectory("det2")
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: one.path)
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: two.path)
        for name in ["run.json", "gate.json", "junit.xml", "summary.md"] {
            var first = String(decoding: FileManager.default.contents(atPath: one.file(name)) ?? Data(), as: UTF8.self)
            var second = String(decoding: FileManager.default.contents(atPath: two.file(name)) ?? Data(), as: UTF8.self)
            #expect(name == "summary.md" || !first.contains(one.path), "only summary.md names its folder: \(name)")
            if name == "run.json" {
                // run.json pins summary.md's bytes, which name the folder: the one line that differs.
                let pin = #/"summary.md" : "[^"]+"/#
                first = first.replacing(pin, with: "summary.md pin")
                second = second.replacing(pin, with: "summary.md pin")
            }
            #expect(!first.isEmpty && first.replacingOccurrences(of: one.path, with: two.path) == second, "\(name)")
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: one.path).sorted() == [
                ArtifactLayout.manifestFile, "gate.json", "junit.xml", "run.json", "summary.md",
            ])
    }

    @Test("a run that starts and never finishes leaves an UNKNOWN gate.json behind")
    func interrupted() throws {
        let dir = try TemporaryDirectory("interrupted")
        let out = dir.file("out")
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        let placeholder = try GateDocument.read(from: out + "/gate.json")
        #expect(placeholder.report.verdict == .unknown && !placeholder.finished)
        #expect(placeholder.report.incomplete == [GateArtifacts.unfinishedReason])
        #expect(!GateArtifacts.isFinished(out))
        #expect(try String(contentsOfFile: out + "/junit.xml", encoding: .utf8).contains("<error"))
        #expect(try String(contentsOfFile: out + "/summary.md", encoding: .utf8).hasPrefix("## Upgrade gate: ⚠️ UNKNOWN"))
        // The same folder cannot be reused while the marker is there...
        #expect(throws: GateError.self) {
            try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        }
        // ...and finishing replaces the placeholder and removes the marker.
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: out)
        #expect(GateArtifacts.isFinished(out))
        #expect(!FileManager.default.fileExists(atPath: out + "/" + GateArtifacts.inProgressMarker))
    }
}

@Suite struct OutputFolderTests {
    @Test("a new or empty folder is accepted")
    func fresh() throws {
        let dir = try TemporaryDirectory("guard")
        try OutputFolder.prepare(dir.path, force: false)
        try OutputFolder.prepare(dir.file("a/b"), force: false)
        #expect(FileManager.default.fileExists(atPath: dir.file("a/b")))
    }

    @Test("a finished run's files are replaced; with files that are not a run's, --force is needed and they stay")
    func anotherRun() throws {
        let dir = try TemporaryDirectory("guard")
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: dir.path)
        try FileManager.default.createDirectory(atPath: dir.file("paths/v1-to-v2"), withIntermediateDirectories: true)
        try OutputFolder.prepare(dir.path, force: false)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [GateArtifacts.inProgressMarker])
        OutputFolder.release(dir.path)
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: dir.path)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir.file("notes.txt")))
        #expect(
            throws: GateError.outputFolderInUse(
                folder: dir.path,
                reason: "holds files that are not a run's (notes.txt); pass --force to write the run beside them")
        ) {
            try OutputFolder.prepare(dir.path, force: false)
        }
        #expect(!FileManager.default.fileExists(atPath: dir.file(GateArtifacts.inProgressMarker)), "a refusal leaves no marker")
        try OutputFolder.prepare(dir.path, force: true)
        defer { OutputFolder.release(dir.path) }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                GateArtifacts.inProgressMarker, "notes.txt",
            ])
    }

    @Test(
        "a person's files inside a finished run's paths/ or inputs/builds/ are not the runner's: refused, kept with --force",
        arguments: [
            "paths/v1-to-v2/upgrade/my-notes.txt", "inputs/builds/v1/notes.md",
        ])
    func userFilesInsideARun(_ userFile: String) throws {
        let dir = try TemporaryDirectory("guard")
        let status = "paths/v1-to-v2/upgrade/status/01-v1-launch.json"
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: dir.path, force: false)
        for file in [status, "inputs/builds/v1/build.json"] {
            try FileManager.default.createDirectory(
                atPath: dir.file((file as NSString).deletingLastPathComponent), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: dir.file(file)))
        }
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: dir.path)
        let manifest = try String(contentsOfFile: dir.file(ArtifactLayout.manifestFile), encoding: .utf8)
        #expect(manifest.contains("\n\(status)\n") && manifest.hasPrefix(RunManifest.identity + "\n"), "\(manifest)")
        try FileManager.default.createDirectory(
            atPath: dir.file((userFile as NSString).deletingLastPathComponent), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir.file(userFile)))
        #expect(
            throws: GateError.outputFolderInUse(
                folder: dir.path,
                reason: "holds files that are not a run's (\(userFile)); pass --force to write the run beside them")
        ) {
            try OutputFolder.prepare(dir.path, force: false)
        }
        #expect(FileManager.default.fileExists(atPath: dir.file(status)), "a refusal removes nothing")
        try OutputFolder.prepare(dir.path, force: true)
        #expect(try String(contentsOfFile: dir.file(userFile), encoding: .utf8) == "mine")
        #expect(!FileManager.default.fileExists(atPath: dir.file(status)), "the earlier run's own file goes")
        #expect(!FileManager.default.fileExists(atPath: dir.file(ArtifactLayout.manifestFile)))
        // The run written beside it does not list it: the next rerun still sees it as a person's.
        try GateArtifacts.write(report: try SampleGate.report(), inputs: SampleGate.inputs(), to: dir.path)
        #expect(try !String(contentsOfFile: dir.file(ArtifactLayout.manifestFile), encoding: .utf8).contains(userFile))
        #expect(throws: GateError.self) { try OutputFolder.prepare(dir.path, force: false) }
    }

    @Test("a folder with unrelated files, or a file, is refused")
    func unrelated() throws {
        let dir = try TemporaryDirectory("guard")
        try Data("x".utf8).write(to: URL(fileURLWithPath: dir.file("photo.jpg")))
        #expect(
            throws: GateError.outputFolderInUse(
                folder: dir.path,
                reason: "holds files that are not a run's (photo.jpg); pass --force to write the run beside them")
        ) {
            try OutputFolder.prepare(dir.path, force: false)
        }
        #expect(throws: GateError.outputFolderInUse(folder: dir.file("photo.jpg"), reason: "is a file, not a folder")) {
            try OutputFolder.prepare(dir.file("photo.jpg"), force: true)
        }
    }
}
