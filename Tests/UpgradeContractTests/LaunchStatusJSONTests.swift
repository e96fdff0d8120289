import Foundation
import Testing

@testable import UpgradeContract

/// Odd values for the writers' tests: strings with every character `JSONEncoder` escapes or
/// leaves alone, a deterministic generator.
struct OddValues {
    /// A deterministic generator: the same values on every run.
    var generator: SplitMix64
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }
    mutating func next() -> UInt64 { generator.next() }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance() -> Bool { next() & 1 == 0 }

    /// Strings every writer must escape as `JSONEncoder` does.
    static let fixed: [String] = [
        "", "a", "\"", "\\", "/", "a/b", "\\/", "\"quoted\"", "tab\there", "line\nbreak", "\r\n", "\u{0}", "\u{7F}",
        "\u{1}\u{8}\u{C}\u{B}\u{1F}\u{1B}", "\u{E9}", "caf\u{E9}", "\u{1F600}", "\u{1F1EB}\u{1F1F7}", "\u{2028}\u{2029}",
        "\u{FEFF}", "\u{85}", "\u{FFFD}", "e\u{301}", "com.example.ledger", "$(CASE_ID)", "iOS 17.5", "<>&'",
        String(repeating: "x", count: 300),
    ]

    /// Single characters to build random strings from.
    static let pieces: [String] = {
        var pieces = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        pieces += ["\u{E9}", "\u{1F600}", "\u{2028}", "\u{FEFF}", "\u{85}", "\u{4E2D}", "\u{10FFFF}", "\r\n"]
        return pieces
    }()

    mutating func string() -> String {
        if chance() { return Self.fixed[below(Self.fixed.count)] }
        var text = ""
        for _ in 0..<below(12) { text += Self.pieces[below(Self.pieces.count)] }
        return text
    }

    mutating func strings() -> [String] { (0..<below(4)).map { _ in string() } }

    mutating func int() -> Int {
        switch below(5) {
        case 0: 0
        case 1: [Int.min, Int.max, -1, 1, 9, 10, 99, 100][below(8)]
        case 2: Int(Int32.min) + below(3)
        default: Int(truncatingIfNeeded: next()) >> below(64)
        }
    }

    mutating func int32() -> Int32 { Int32(truncatingIfNeeded: int()) }

    mutating func maybe<T>(_ make: (inout OddValues) -> T) -> T? { chance() ? make(&self) : nil }

    mutating func pick<T: CaseIterable>(_: T.Type) -> T {
        let all = Array(T.allCases)
        return all[below(all.count)]
    }
}

/// The status file's bytes written without `JSONEncoder` (``LaunchStatus/encoded()``) against
/// the bytes `JSONEncoder` writes with the options the file always had.
@Suite struct LaunchStatusJSONTests {
    static func encoderBytes(_ status: LaunchStatus) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(status)
        data.append(0x0A)
        return data
    }

    static func check(_ values: inout OddValues) -> ItemCheck {
        ItemCheck(
            name: values.string(), location: values.pick(StoreLocation.self), operation: values.string(),
            status: values.int32(), runtime: values.string(), result: values.pick(ItemResult.self))
    }

    static func status(_ values: inout OddValues) -> LaunchStatus {
        var status = LaunchStatus(
            build: values.string(), mode: values.pick(LaunchMode.self), caseID: values.string(), runtime: values.string(),
            schemaVersion: values.maybe { $0.int() },
            migration: values.maybe {
                MigrationOutcome(
                    state: $0.pick(MigrationState.self), from: $0.maybe { $0.int() }, to: $0.maybe { $0.int() },
                    reason: $0.maybe { $0.string() })
            },
            sweep: values.maybe { $0.pick(SweepResult.self) },
            items: (0..<values.below(4)).map { _ in check(&values) },
            legacy: values.maybe { LegacyState(preferenceKeys: $0.strings(), archive: $0.chance(), artefacts: $0.strings()) },
            errors: (0..<values.below(3)).map { _ in check(&values) },
            startup: values.maybe { values in (0..<values.below(3)).map { _ in check(&values) } })
        status.textReadsOfBytes = values.maybe { $0.strings() }
        status.formatVersion = values.chance() ? LaunchStatus.currentFormat : values.int()
        return status
    }

    @Test("the same bytes as JSONEncoder over 3,000 statuses: odd strings, every optional set and unset, empty lists")
    func sameAsJSONEncoder() throws {
        var values = OddValues(seed: 40)
        for _ in 0..<3000 {
            let status = Self.status(&values)
            // encoded() sorts the lists first: the encoder gets the same sorted copy.
            #expect(try status.encoded() == (try Self.encoderBytes(status.sortedForFile())), "\(status)")
        }
    }

    @Test("every field set, every field unset, and the sample statuses")
    func edges() throws {
        let check = ItemCheck(
            name: "a/b\"c\\d\u{1}\u{1F600}", location: .keychain, operation: "SecItemCopyMatching", status: -25300,
            runtime: "iOS 17.5", result: .found)
        var full = LaunchStatus(
            build: "v3", mode: .seedMalformed, caseID: "", runtime: "iOS 12.4", schemaVersion: -1,
            migration: MigrationOutcome(state: .failed, from: 0, to: Int.max, reason: ""), sweep: .markerPresent,
            items: [check, check], legacy: LegacyState(preferenceKeys: [], archive: false, artefacts: []), errors: [check],
            startup: [])
        full.textReadsOfBytes = []
        let bare = LaunchStatus(build: "v1", mode: .launch, caseID: "c", runtime: "iOS 17.5")
        for status in [full, bare] {
            #expect(try status.encoded() == (try Self.encoderBytes(status.sortedForFile())))
        }
    }

    @Test("a field added to the status's types is one the writer must be told about")
    func fieldsCounted() {
        let bare = LaunchStatus(build: "v1", mode: .launch, caseID: "c", runtime: "iOS 17.5")
        let check = ItemCheck(name: "", location: .file, operation: "", status: 0, runtime: "", result: .found)
        // Update LaunchStatusJSON.swift (and these counts) when one of these types gains a field.
        #expect(Mirror(reflecting: bare).children.count == 13)
        #expect(Mirror(reflecting: check).children.count == 6)
        #expect(Mirror(reflecting: MigrationOutcome(state: .failed)).children.count == 4)
        #expect(Mirror(reflecting: LegacyState(preferenceKeys: [], archive: false, artefacts: [])).children.count == 3)
    }
}
