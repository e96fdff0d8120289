import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
@testable import UpgradeRunner

/// The formats a bundle is made of, on literal bytes: ustar entries and gzip (zlib) round-trip,
/// and damage is refused.
@Suite struct BundleFormatTests {
    @Test(
        "gzip round-trips at chunk boundaries, compressed and stored (level 0), and the same data gives the same bytes",
        arguments: [0, 1, 65_535, 1 << 20, (1 << 20) + 1, 3_000_001])
    func gzipRoundTrip(count: Int) throws {
        let data = Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) })
        let compressed = try Gzip.compress(data)
        #expect(compressed == (try Gzip.compress(data)))
        #expect(compressed.prefix(4) == Data([0x1F, 0x8B, 0x08, 0x00]))
        #expect(compressed[4..<8] == Data([0, 0, 0, 0]), "no modification time")
        #expect(try Gzip.decompress(compressed) == data)
        let stored = try Gzip.compress(data, level: 0)
        #expect(try Gzip.decompress(stored) == data)
        #expect(throws: (any Error).self) { try Gzip.decompress(compressed.dropLast()) }
        #expect(throws: (any Error).self) { try Gzip.decompress(compressed + Data([0])) }
    }

    @Test("a bundle of an earlier runner (gzip of stored blocks with OS 255) is read too")
    func storedBlocksOfEarlierRunners() throws {
        // "hello\n" as one final stored block, as the earlier StoredGzip wrote it.
        let content = Data("hello\n".utf8)
        var bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF, 0x01, 0x06, 0x00, 0xF9, 0xFF]
        bytes += content
        bytes += [0x20, 0x30, 0x3A, 0x36, 0x06, 0, 0, 0]  // CRC-32 of "hello\n" (0x363A3020), length 6
        #expect(try Gzip.decompress(Data(bytes)) == content)
    }

    @Test("ustar entries round-trip, a path over 100 bytes is split into prefix and name, and a damaged header is refused")
    func tarRoundTrip() throws {
        let long = "run/" + String(repeating: "p", count: 90) + "/" + String(repeating: "n", count: 60)
        let entries = [
            USTar.Entry(path: "run", kind: .folder, mode: 0o755, data: Data()),
            USTar.Entry(path: "run/a.json", kind: .file, mode: 0o644, data: Data("{}\n".utf8)),
            USTar.Entry(path: long, kind: .file, mode: 0o755, data: Data(repeating: 7, count: 513)),
        ]
        let archive = try USTar.write(entries)
        #expect(archive.count % 512 == 0)
        #expect(try USTar.read(archive) == entries)
        var damaged = archive
        damaged[512 + 3] ^= 0x20
        #expect(throws: USTar.Failure.self) { try USTar.read(damaged) }
        #expect(throws: USTar.Failure.self) { try USTar.read(archive.prefix(1024 + 100)) }
    }
}

/// `bundle` and `replay FILE.tar.gz` on a real archived Ledger gate.
@Suite struct BundleCommandTests {
    private func archivedGate(_ cli: CLI) throws -> String {
        try cli.archivedGate(at: cli.directory.file("gate"), caseID: "bundle-1")
    }

    private func replayAlone(_ cli: CLI, _ file: String) -> [String] { cli.replayAlone(file) }

    @Test("a bundle is the same bytes each time, tar reads it, and it replays identically with no builds and no products")
    func roundTrip() throws {
        let cli = try CLI()
        let folder = try archivedGate(cli)
        let first = cli.directory.file("one.tar.gz"), second = cli.directory.file("two.tar.gz")
        #expect(cli.run(["bundle", folder, "-o", first]).code == 0)
        // A replay beside the folder is no part of the run: the bundle stays the same.
        #expect(cli.run(["replay", folder, "--builds-dir", RunFolders.repositoryBuilds]).code == 0)
        #expect(FileManager.default.fileExists(atPath: folder + "-replay/gate.json"))
        #expect(cli.run(["bundle", folder, "--out", second]).code == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(bytes == (try Data(contentsOf: URL(fileURLWithPath: second))))
        let members = try USTar.read(try Gzip.decompress(bytes)).map(\.path)
        #expect(members == members.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(members.contains("run/inputs/executables"))
        #expect(!members.contains { $0.hasPrefix("run/replay") })

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/tar") {
            let unpacked = cli.directory.file("tar-x")
            try FileManager.default.createDirectory(atPath: unpacked, withIntermediateDirectories: true)
            let tar = try Process.run(URL(fileURLWithPath: "/usr/bin/tar"), arguments: ["xzf", first, "-C", unpacked])
            tar.waitUntilExit()
            #expect(tar.terminationStatus == 0)
            #expect(FileManager.default.fileExists(atPath: unpacked + "/run/inputs/builds/v2/build.json"))
        }

        try FileManager.default.removeItem(atPath: folder)
        let replay = cli.run(replayAlone(cli, first))
        #expect(replay.code == 0, "\(replay.output)\(replay.error)")
        #expect(replay.output == "identical\n")
        #expect(FileManager.default.fileExists(atPath: cli.directory.file("one-replay/gate.json")))
    }

    @Test("a truncated, bit-flipped or non-gzip bundle is refused naming the file, before anything runs")
    func damagedBundles() throws {
        let cli = try CLI()
        let folder = try archivedGate(cli)
        let good = cli.directory.file("good.tar.gz")
        #expect(cli.run(["bundle", folder, "-o", good]).code == 0)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x01
        for (name, data, reason) in [
            ("truncated.tar.gz", bytes.prefix(bytes.count / 3), "is truncated"),
            ("flipped.tar.gz", flipped, "is damaged: "), ("text.tar.gz", Data("hello\n".utf8), "is not a gzip file"),
        ] {
            let file = cli.directory.file(name)
            try data.write(to: URL(fileURLWithPath: file))
            cli.expectRefused(replayAlone(cli, file), naming: "\(file): \(reason)")
        }
    }

    /// A bundle of the gate in `folder` with `edit` applied to its members, written to `name`.
    private func editedBundle(
        _ cli: CLI, _ folder: String, _ name: String, _ edit: (inout [USTar.Entry]) throws -> Void
    ) throws -> String {
        let packed = cli.directory.file("packed-" + name)
        _ = try RunBundle.pack(folder, to: packed)
        var entries = try USTar.read(try Gzip.decompress(try Data(contentsOf: URL(fileURLWithPath: packed))))
        try FileManager.default.removeItem(atPath: packed)
        try edit(&entries)
        let file = cli.directory.file(name)
        try Gzip.compress(try USTar.write(entries)).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("a bundle with a changed executable, a newer run.json or a member outside run/ is refused naming the member")
    func tamperedBundles() throws {
        let cli = try CLI()
        let folder = try archivedGate(cli)
        let changed = try editedBundle(cli, folder, "changed.tar.gz") { entries in
            let index = try #require(entries.firstIndex { $0.path.hasPrefix("run/inputs/executables/") && $0.kind == .file })
            entries[index].data.append(0)
        }
        cli.expectRefused(replayAlone(cli, changed), naming: "\(changed): run/inputs/executables/")
        let newer = try editedBundle(cli, folder, "newer.tar.gz") { entries in
            let index = try #require(entries.firstIndex { $0.path == "run/run.json" })
            let text = String(decoding: entries[index].data, as: UTF8.self)
            entries[index].data = Data(
                text.replacingOccurrences(of: "\"formatVersion\" : 1,", with: "\"formatVersion\" : 9,").utf8)
        }
        cli.expectRefused(replayAlone(cli, newer), naming: "\(newer): run/run.json: formatVersion 9 is newer")
        let outside = try editedBundle(cli, folder, "outside.tar.gz") { entries in
            entries.append(USTar.Entry(path: "run/../escape", kind: .file, mode: 0o644, data: Data()))
        }
        cli.expectRefused(replayAlone(cli, outside), naming: "\(outside): holds run/../escape, outside")
    }

    @Test("bundle refuses a folder with no inputs, an unfinished run or a changed input; -o is required")
    func refusals() throws {
        let cli = try CLI()
        let folder = try archivedGate(cli)
        cli.expectRefused(["bundle", folder], naming: "bundle: option --out is required")
        let inputs = try RunInputs.read(from: folder + "/run.json")
        let executable = folder + "/" + inputs.archivedInputs!.builds["v1"]!.executable
        try (Data(contentsOf: URL(fileURLWithPath: executable)) + Data([1])).write(to: URL(fileURLWithPath: executable))
        cli.expectRefused(["bundle", folder, "-o", cli.directory.file("b.tar.gz")], naming: "\(executable): has sha256 ")
        try FileManager.default.removeItem(atPath: folder + "/inputs")
        cli.expectRefused(
            ["bundle", folder, "-o", cli.directory.file("b.tar.gz")], naming: "\(folder): holds no archived inputs")
        try Data().write(to: URL(fileURLWithPath: folder + "/" + GateArtifacts.inProgressMarker))
        cli.expectRefused(
            ["bundle", folder, "-o", cli.directory.file("b.tar.gz")], naming: "\(folder): holds a run that did not finish")
    }
}
