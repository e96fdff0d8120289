import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimDevice
import TestSupport
import Testing
@testable import UpgradeRunner
import UpgradeContract

/// Bad input to `bundle` and `replay`, one row each: what is given, the exit code, the one line's
/// pattern, and the folders that must not change (on top of `expectRefused`'s check that nothing
/// under the test's folder changed). The runs are fixture runs (TinyApp builds, archived inputs,
/// no app launched), so every refusal comes before anything runs.
@Suite struct BundleReplayBadInputTests {
    /// A finished, archived fixture run of v1 and v2 in `<test>/run`, and the test's folder around it.
    struct Fixture {
        let cli: CLI
        let run: String

        /// `v2Executable`: FoundationAppDynamic for a build that loads the Swift runtime from the toolchain.
        init(v2Executable: String = "TinyApp") throws {
            cli = try CLI()
            try BuildFixture.write(in: cli.builds, id: "v1")
            try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200", executable: v2Executable)
            // Both declare one secret, so that the run's leak scan has something to look for.
            for id in ["v1", "v2"] {
                let path = cli.builds + "/\(id)/build.json"
                var manifest = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
                manifest["keeps"] = [
                    "secrets": [
                        [
                            "label": "authToken",
                            "store": [
                                "kind": "keychain", "service": "com.example.tiny", "account": "authToken", "accessible": "cku",
                            ],
                        ]
                    ]
                ]
                try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
            }
            run = cli.directory.file("run")
            let catalog = BuildCatalog(folder: cli.builds, productsFolder: BuiltProducts.directory.path)
            let builds = try GatePipeline.resolve(["v1", "v2"], in: catalog)
            var inputs = try RunFolders.pinnedInputs(cli, builds: ["v1", "v2"])
            inputs.archivedInputs = try ArchivedInputs.plan(for: builds, pins: inputs.buildFiles)
            try RunFolders.write(inputs, at: run)
            try inputs.archivedInputs!.write(builds, to: run)
        }

        func file(_ name: String) -> String { cli.directory.file(name) }

        /// The first status file of the run, relative to it.
        func statusFile() throws -> String { try #require(StatusComparison.statusFiles(in: run).sorted().first) }

        /// A bundle of the run with `entries` added, written to `name`.
        /// `raw`: bytes put before the archive's end (a crafted header).
        func bundle(adding entries: [USTar.Entry], as name: String, raw: Data = Data()) throws -> String {
            let packed = file("packed-" + name)
            _ = try RunBundle.pack(run, to: packed)
            let members = try USTar.read(try Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: packed))))
            try FileManager.default.removeItem(atPath: packed)
            let bundle = file(name)
            let tar = try USTar.write(members + entries)
            try Gzip.compress(tar.dropLast(USTar.end.count) + raw + USTar.end).write(to: URL(fileURLWithPath: bundle))
            return bundle
        }
    }

    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        /// Prepares the input and answers the words to run.
        var input: @Sendable (Fixture) throws -> [String]
        var code: Int32 = 2
        /// What the one line must contain.
        var message: @Sendable (Fixture) throws -> String
        /// Folders, relative to the test's folder, that must hold the same files before and after.
        var unchanged: [String] = ["run"]
        /// v2 is FoundationAppDynamic, linked against the toolchain's Swift runtime.
        var dynamic = false
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(
            name: "bundle of a run whose build loads the Swift runtime from the toolchain",
            input: { ["bundle", $0.run, "-o", $0.file("b.tar.gz")] },
            message: { _ in "build v2: its executable loads the Swift runtime from the toolchain (libswift" }, dynamic: true),
        Row(
            name: "bundle -o inside the run it packs",
            input: { ["bundle", $0.run, "-o", $0.run + "/run.tar.gz"] },
            message: { "--out \($0.run)/run.tar.gz is inside \($0.run), the run it packs" }),
        Row(
            name: "bundle -o over the run's own run.json",
            input: { ["bundle", $0.run, "-o", $0.run + "/run.json"] },
            message: { "--out \($0.run)/run.json is inside \($0.run)" }),
        Row(
            name: "bundle -o inside the run through .. and a link",
            input: { fixture in
                try FileManager.default.createSymbolicLink(atPath: fixture.file("link"), withDestinationPath: fixture.run)
                return ["bundle", fixture.run, "-o", fixture.file("link") + "/paths/../b.tar.gz"]
            },
            message: { "is inside \($0.run), the run it packs" }),
        Row(
            name: "bundle of a run whose file still holds a seeded secret",
            input: { fixture in
                let cell = ((try fixture.statusFile()) as NSString).deletingLastPathComponent
                let secret = String(
                    decoding: CaseSecrets.value(caseID: "case-7", label: "authToken", shape: .alnum), as: UTF8.self)
                try Data("token=\(secret)\n".utf8).write(to: URL(fileURLWithPath: fixture.run + "/" + cell + "/../app.log"))
                return ["bundle", fixture.run, "-o", fixture.file("b.tar.gz")]
            },
            message: { "\($0.run): 1 file still holds a secret of case case-7 (paths/" }),
        Row(
            name: "replay --out the archive itself",
            input: { ["replay", $0.run, "--out", $0.run] },
            message: { "--out \($0.run) and the archive \($0.run) overlap" }),
        Row(
            name: "replay --out inside the archive",
            input: { ["replay", $0.run, "--out", $0.run + "/paths/again"] },
            message: { "--out \($0.run)/paths/again and the archive \($0.run) overlap" }),
        Row(
            name: "replay --out holding the archive",
            input: { ["replay", $0.run, "--out", $0.cli.directory.path] },
            message: { "and the archive \($0.run) overlap" }, unchanged: ["run", "builds"]),
        Row(
            name: "replay of an archive whose status file was edited",
            input: { fixture in
                let status = fixture.run + "/" + (try fixture.statusFile())
                try Data("{\n  \"status\" : 1\n}\n".utf8).write(to: URL(fileURLWithPath: status))
                return ["replay", fixture.run]
            },
            message: { "\($0.run)/\(try $0.statusFile()): has sha256 " }),
        Row(
            name: "replay of an archive with a status file added",
            input: { fixture in
                let status = fixture.run + "/" + (try fixture.statusFile())
                let added = (status as NSString).deletingLastPathComponent + "/99-v2-verify.json"
                try Data("{}\n".utf8).write(to: URL(fileURLWithPath: added))
                return ["replay", fixture.run]
            },
            message: { _ in "99-v2-verify.json: is a status file run.json does not pin" }),
        Row(
            name: "replay of an archive whose summary.md was edited",
            input: { fixture in
                try Data("# PASS\n".utf8).write(to: URL(fileURLWithPath: fixture.run + "/summary.md"))
                return ["replay", fixture.run]
            },
            message: { "\($0.run)/summary.md: has sha256 " }),
        Row(
            name: "replay of an archive whose junit.xml was removed",
            input: { fixture in
                try FileManager.default.removeItem(atPath: fixture.run + "/junit.xml")
                return ["replay", fixture.run]
            },
            message: { "\($0.run)/junit.xml: is missing, but run.json pins it" }),
        Row(
            name: "replay of a run whose build.json changed in the builds folder",
            input: { fixture in
                try FileManager.default.removeItem(atPath: fixture.run + "/inputs")
                let manifest = fixture.cli.builds + "/v2/build.json"
                var text = try String(contentsOfFile: manifest, encoding: .utf8)
                text = text.replacingOccurrences(of: "test fixture", with: "test fixture, edited")
                try text.write(toFile: manifest, atomically: true, encoding: .utf8)
                return ["replay", fixture.run, "--builds-dir", fixture.cli.builds]
            },
            message: { "\($0.cli.builds)/v2/build.json: has sha256 " }, unchanged: ["run", "builds"]),
        Row(
            name: "replay of a bundle whose members clash (a file and a folder of one name)",
            input: { fixture in
                let bundle = try fixture.bundle(
                    adding: [
                        USTar.Entry(path: "run/zz", kind: .file, mode: 0o644, data: Data("x".utf8)),
                        USTar.Entry(path: "run/zz/inner", kind: .file, mode: 0o644, data: Data("y".utf8)),
                    ], as: "clash.tar.gz")
                return fixture.cli.replayAlone(bundle)
            },
            message: { "\($0.file("clash.tar.gz")): holds run/zz both as a file and as a folder" }),
        Row(
            name: "replay of a bundle whose member claims more bytes than the bound: refused before a byte is written",
            input: { fixture in
                // A header alone: the claimed size is refused before the (missing) content is read.
                let header = try USTar.header(path: "run/huge.bin", kind: .file, mode: 0o644, size: 8_000_000_000)
                return fixture.cli.replayAlone(try fixture.bundle(adding: [], as: "huge.tar.gz", raw: header))
            },
            message: { "\($0.file("huge.tar.gz")): unpacks to more than " }),
        Row(
            name: "replay of a bundle with --out the bundle file itself",
            input: { fixture in
                let bundle = fixture.file("b.tar.gz")
                _ = try RunBundle.pack(fixture.run, to: bundle)
                return ["replay", bundle, "--out", bundle]
            },
            message: { "--out \($0.file("b.tar.gz")) and the archive \($0.file("b.tar.gz")) overlap" }),
    ]

    // One row at a time: each row checks that no unpack folder of this process is left, and another
    // row's replay unpacking at the same moment would be one.
    @Test("bad input to bundle and replay: one line, the exit code, nothing changed", .serialized, arguments: rows)
    func refused(row: Row) throws {
        let fixture = try Fixture(v2Executable: row.dynamic ? "FoundationAppDynamic" : "TinyApp")
        let words = try row.input(fixture)
        let before = row.unchanged.map { BuildFixture.tree(fixture.cli.directory.file($0)) }
        let temporary = Self.unpackFolders()
        let result = fixture.cli.expectRefused(words, naming: try row.message(fixture))
        #expect(result.code == row.code)
        #expect(!result.error.contains(NSTemporaryDirectory() + RunBundle.unpackPrefix), "no temporary path: \(result.error)")
        #expect(row.unchanged.map { BuildFixture.tree(fixture.cli.directory.file($0)) } == before)
        // Another suite's replay in this process may be unpacking right now: its folder's owner lock is
        // held. A folder this row left would be free.
        let left = Self.unpackFolders().subtracting(temporary).filter { !Self.isHeld(NSTemporaryDirectory() + $0) }
        #expect(left.isEmpty, "no unpack folder left")
    }

    /// Whether `folder`'s owner marker is locked by a live owner (its lock cannot be taken).
    static func isHeld(_ folder: String) -> Bool {
        let descriptor = open(folder + "/" + OwnedFolder.markerName, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) != 0
    }

    static func unpackFolders() -> Set<String> {
        Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []).filter {
                $0.hasPrefix(RunBundle.unpackPrefix + "\(getpid())-")
            })
    }

    @Test("a run whose leaked file was replaced by a redaction note is bundled; the leak is in no output")
    func redactedLeak() throws {
        let fixture = try Fixture()
        let cell = ((try fixture.statusFile()) as NSString).deletingLastPathComponent
        let log = fixture.run + "/" + cell + "/../app.log"
        let secret = String(decoding: CaseSecrets.value(caseID: "case-7", label: "authToken", shape: .alnum), as: UTF8.self)
        try Data("token=\(secret)\n".utf8).write(to: URL(fileURLWithPath: log))
        let refused = fixture.cli.run(["bundle", fixture.run, "-o", fixture.file("b.tar.gz")])
        #expect(refused.code == 2)
        #expect(!(refused.output + refused.error).contains(secret))
        try Data("redacted: held authToken of case case-7 (raw)\n".utf8).write(to: URL(fileURLWithPath: log))
        let written = fixture.cli.run(["bundle", fixture.run, "-o", fixture.file("b.tar.gz")])
        #expect(written.code == 0, "\(written.error)")
        #expect(FileManager.default.fileExists(atPath: fixture.file("b.tar.gz")))
    }

    @Test("an unpacked bundle is 0700 folders and 0600 files (0700 executables), stored or compressed, and the same files")
    func unpackModes() throws {
        let fixture = try Fixture()
        let compressed = fixture.file("c.tar.gz"), stored = fixture.file("s.tar.gz")
        _ = try RunBundle.pack(fixture.run, to: compressed)
        let tar = try Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: compressed)))
        try Gzip.compress(tar, level: 0).write(to: URL(fileURLWithPath: stored))
        #expect(try Data(contentsOf: URL(fileURLWithPath: compressed)).count < tar.count / 2)
        var trees: [[String]] = []
        for (bundle, target) in [(compressed, fixture.file("uc")), (stored, fixture.file("us"))] {
            let run = try RunBundle.unpack(bundle, into: target)
            trees.append(BuildFixture.tree(run))
            let enumerator = try #require(FileManager.default.enumerator(atPath: target))
            while let relative = enumerator.nextObject() as? String {
                var info = stat()
                #expect(lstat(target + "/" + relative, &info) == 0)
                let mode = Int(info.st_mode & 0o777)
                let expected =
                    info.st_mode & S_IFMT == S_IFDIR || relative.contains("/inputs/executables/") ? 0o700 : 0o600
                #expect(mode == expected, "\(relative): \(String(mode, radix: 8))")
            }
            var top = stat()
            #expect(stat(target, &top) == 0 && top.st_mode & 0o777 == 0o700)
        }
        #expect(trees[0] == trees[1])
        #expect(trees[0].contains { $0.contains("run.json") }, "\(trees[0].prefix(3))")
    }

    @Test("unpack folders of runners that are gone are removed at the next start; a live runner's stay")
    func abandonedUnpacks() throws {
        let cli = try CLI()
        let base = cli.directory.file("tmp")
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        let dead = base + "/" + RunBundle.unpackPrefix + "1-A"
        let live = base + "/" + RunBundle.unpackPrefix + "1-B"
        let other = base + "/upgrade-runner-devices-1-C"
        for folder in [dead, live, other] { try OwnedFolder.create(folder) }
        OwnedFolder.release(dead)
        OwnedFolder.release(other)
        defer { OwnedFolder.release(live) }
        RunBundle.removeAbandonedUnpacks(in: base)
        #expect(!FileManager.default.fileExists(atPath: dead))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other), "not an unpack folder: not this sweep's")
    }

    @Test("DT_NEEDED of a dynamically linked app names the toolchain's runtime; a static one's names none")
    func linkage() throws {
        let dynamic = try ELFLinkage.neededLibraries(ofFileAt: BuiltProducts.directory.path + "/FoundationAppDynamic")
        #expect(dynamic.contains { $0.hasPrefix("libFoundation") }, "\(dynamic)")
        #expect(dynamic.contains(where: ELFLinkage.isSwiftRuntime))
        let tiny = try ELFLinkage.neededLibraries(ofFileAt: BuiltProducts.directory.path + "/TinyApp")
        #expect(!tiny.contains(where: ELFLinkage.isSwiftRuntime), "\(tiny)")
        #expect(ELFLinkage.neededLibraries(in: Data("#!/bin/sh\n".utf8)).isEmpty)
    }
}
