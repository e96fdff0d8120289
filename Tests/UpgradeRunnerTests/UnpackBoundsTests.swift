import Foundation
@testable import GateModel
import TestSupport
import Testing

/// A crafted bundle cannot make `replay` write more than its bound (#37): bytes past a ratio of the
/// compressed size plus a floor, or entries past a count, are refused naming the bundle and the
/// bound, and nothing is left. Small bounds and small bundles stand for the real ones.
@Suite struct UnpackBoundsTests {
    static let small = UnpackBounds(ratio: 2, floor: 64 << 10, entries: 50)

    /// A gzip'd tar of `run/run.json` and `entries`, with `tail` after the archive's end.
    private func bundle(_ entries: [USTar.Entry], tail: Data = Data(), in directory: TemporaryDirectory) throws -> String {
        let run = USTar.Entry(path: "run/run.json", kind: .file, mode: 0o644, data: Data("{}".utf8))
        let path = directory.file("crafted.tar.gz")
        try Gzip.compress(try USTar.write([run] + entries) + tail, level: 9).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func expectRefused(_ bundle: String, in directory: TemporaryDirectory, saying words: String) {
        let target = directory.file("unpacked")
        do {
            _ = try RunBundle.unpack(bundle, into: target, bounds: Self.small)
            Issue.record("unpacked \(bundle)")
        } catch {
            #expect("\(error)".contains(bundle + ": " + words), "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
        #expect(!FileManager.default.fileExists(atPath: target), "nothing left behind")
    }

    @Test("a file of zeros far past ratio times the compressed size plus the floor is refused while it unpacks")
    func byteBomb() throws {
        let directory = try TemporaryDirectory("bomb")
        let zeros = USTar.Entry(path: "run/zeros.bin", kind: .file, mode: 0o644, data: Data(count: 1 << 20))
        let path = try bundle([zeros], in: directory)
        let compressed = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(compressed < 16 << 10, "a small bundle: \(compressed) bytes")
        expectRefused(
            path, in: directory,
            saying:
                "unpacks to more than \(Self.small.bytes(compressed: compressed)) bytes (2 times its \(compressed) compressed bytes plus 65536 bytes): refused as a bomb, not a run"
        )
    }

    @Test("zeros after the archive's end count too")
    func trailingBomb() throws {
        let directory = try TemporaryDirectory("bomb")
        expectRefused(try bundle([], tail: Data(count: 1 << 20), in: directory), in: directory, saying: "unpacks to more than ")
    }

    @Test("more entries than the bound are refused, however small")
    func entryBomb() throws {
        let directory = try TemporaryDirectory("bomb")
        let folders = (0..<60).map { USTar.Entry(path: "run/f\($0)", kind: .folder, mode: 0o755, data: Data()) }
        expectRefused(
            try bundle(folders, in: directory), in: directory, saying: "holds more than 50 entries: refused as a bomb, not a run")
    }

    @Test("a bundle within the bounds unpacks")
    func withinBounds() throws {
        let directory = try TemporaryDirectory("bomb")
        let file = USTar.Entry(path: "run/paths/a.json", kind: .file, mode: 0o644, data: Data(count: 32 << 10))
        let run = try RunBundle.unpack(try bundle([file], in: directory), into: directory.file("unpacked"), bounds: Self.small)
        defer { OwnedFolder.release(directory.file("unpacked")) }
        #expect(FileManager.default.fileExists(atPath: run + "/paths/a.json"))
    }

    @Test("the standard bounds hold a real run: 90 MB compressed at 2.6 times, 2,500 files")
    func standardBounds() {
        #expect(UnpackBounds.standard.bytes(compressed: 90_099_078) > 239_537_664 * 3)
        #expect(UnpackBounds.standard.entries >= 2_500 * 8)
        #expect(UnpackBounds.standard.bytes(compressed: 1 << 20) < 80 << 20, "a 1 MB bomb stops below 80 MB")
    }
}
