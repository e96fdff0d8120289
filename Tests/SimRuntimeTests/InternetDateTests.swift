import Foundation
import SimRuntime
import UpgradeContract
import Testing

/// `InternetDate` stands in for `ISO8601DateFormatter()` in the keychain dump and in v3's migration
/// date, so it must write the same bytes and read them back to the same date.
@Suite struct InternetDateTests {
    /// Whole seconds, fractions of every size, the half-millisecond boundaries ICU rounds at, dates
    /// before 1970 and far ahead: a seeded generator, so a failure names a value that repeats.
    static func dates() -> [Date] {
        var generator = SplitMix64(seed: 0x1E7E_5EED)
        var dates: [Date] = [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: -0.0004), Date(timeIntervalSince1970: 0.9995),
        ]
        for index in 0..<20_000 {
            let whole = Double(Int64(generator.next() % 15_000_000_000) - 5_000_000_000)
            let fraction: Double
            switch index % 4 {
            case 0: fraction = 0
            case 1: fraction = Double(generator.next() % 1_000_000) / 1_000_000
            case 2: fraction = 0.9995 + Double(Int(generator.next() % 7) - 3) * 0.0001
            default: fraction = -Double(generator.next() % 2_000) / 1_000_000
            }
            dates.append(Date(timeIntervalSince1970: whole + fraction))
        }
        return dates
    }

    @Test("writes what ISO8601DateFormatter writes, and reads it back as the formatter does")
    func matchesFoundationsFormatter() {
        let formatter = ISO8601DateFormatter()
        for date in Self.dates() {
            let expected = formatter.string(from: date)
            #expect(InternetDate.string(from: date) == expected, "\(date.timeIntervalSince1970)")
            #expect(InternetDate.date(from: expected) == formatter.date(from: expected), "\(expected)")
        }
    }

    @Test("text that is not an internet date reads as none")
    func rejectsOtherText() {
        for text in ["", "garbage", "2026-12-01", "2026-12-01 17:00:00Z", "20261201T170000Z", "2026-13-01T17:00:00Z"] {
            #expect(InternetDate.date(from: text) == nil, "\(text)")
        }
        #expect(InternetDate.date(from: "2026-12-01T18:00:00+01:00") == InternetDate.date(from: "2026-12-01T17:00:00Z"))
    }
}
