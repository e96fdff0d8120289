import Foundation
import Testing
import UpgradeContract

@testable import SimRuntime

/// The mutation log's lines written without `JSONEncoder` (``SeamEntry/line()``) against the bytes
/// `JSONEncoder` wrote for them (`.sortedKeys`, `.withoutEscapingSlashes`, a line break).
@Suite struct MutationLogLineTests {
    static func encoderLine(_ entry: SeamEntry) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(entry)) + [0x0A]
    }

    /// A deterministic generator (SplitMix64).
    struct Values {
        var generator: SplitMix64
        init(seed: UInt64) { generator = SplitMix64(seed: seed) }
        mutating func next() -> UInt64 { generator.next() }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance() -> Bool { next() & 1 == 0 }

        static let fixed = [
            "", "/", "a/b", "\"", "\\", "\u{0}", "\u{7F}", "\u{1F}\u{8}\u{C}\n\r\t", "\u{E9}", "\u{1F600}", "\u{2028}", "\r\n",
            "Library/Preferences/com.example.ledger.plist", "group.example/shared token", "genp", "preferences",
        ]
        static let pieces = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + ["\u{E9}", "\u{1F600}", "\u{FEFF}"]

        mutating func string() -> String {
            if chance() { return Self.fixed[below(Self.fixed.count)] }
            return (0..<below(10)).map { _ in Self.pieces[below(Self.pieces.count)] }.joined()
        }
        mutating func int() -> Int {
            chance() ? [0, 1, -1, Int.max, Int.min, 10, 99][below(7)] : Int(truncatingIfNeeded: next()) >> below(64)
        }
        mutating func maybeString() -> String? { chance() ? string() : nil }
    }

    @Test("the same bytes as JSONEncoder over 5,000 entries: odd names, every optional set and unset, every operation")
    func sameAsJSONEncoder() throws {
        var values = Values(seed: 7)
        for index in 0..<5000 {
            let operations = StoreOperation.allCases
            let injected: FaultAction? =
                switch values.below(3) {
                case 0: nil
                case 1: .dropWrite
                default: .status(Int32(truncatingIfNeeded: values.int()))
                }
            let entry = SeamEntry(
                sequence: values.int(), operation: operations[index % operations.count],
                subject: SeamSubject(
                    store: values.string(), service: values.maybeString(), account: values.maybeString(),
                    name: values.maybeString(), target: values.maybeString()),
                status: Int32(truncatingIfNeeded: values.int()), mutation: values.chance() ? values.int() : nil,
                injected: injected)
            #expect(entry.line() == (try Self.encoderLine(entry)), "\(entry)")
        }
    }

    @Test("the log's file holds the lines, which read back")
    func appendedAndRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mutation-log-\(getpid()).jsonl").path
        defer { unlink(path) }
        let entries = [
            SeamEntry(
                sequence: 1, operation: .secItemAdd, subject: SeamSubject(store: "genp", service: "s/1", account: "a\"b"),
                status: 0, mutation: 1, injected: nil),
            SeamEntry(
                sequence: 2, operation: .fsRename, subject: SeamSubject(store: "file", name: "tmp/a", target: "b"),
                status: 28, mutation: nil, injected: .status(28)),
        ]
        do {
            let log = try #require(MutationLogFile(path: path))
            for entry in entries { log.append(entry) }
        }
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(Array(data) == (try entries.flatMap(Self.encoderLine)))
        #expect(MutationLogFile.read(path) == entries)
    }

    @Test("a field added to the entry's types is one the writer must be told about")
    func fieldsCounted() {
        let entry = SeamEntry(
            sequence: 1, operation: .secItemAdd, subject: SeamSubject(store: "genp"), status: 0, mutation: nil,
            injected: nil)
        // Update SeamEntry.line() (and these counts) when one of these types gains a field.
        #expect(Mirror(reflecting: entry).children.count == 6)
        #expect(Mirror(reflecting: entry.subject).children.count == 5)
    }
}
