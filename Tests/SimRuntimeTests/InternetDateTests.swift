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

    @Test("the arithmetic writes and reads what the format style does, and leaves it what it does not take")
    func arithmeticMatchesTheStyle() throws {
        let style = Date.ISO8601FormatStyle()
        var seconds: [Double] = [-11_644_473_600, -11_644_473_601, 253_402_300_799, 253_402_300_800, 951_782_400, 951_868_800]
        var generator = SplitMix64(seed: 0xDA7E)
        for _ in 0..<20_000 { seconds.append(Double(Int64(generator.next() % 300_000_000_000) - 30_000_000_000)) }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(InternetDate.string(from: date) == date.formatted(style), "\(value)")
            let text = date.formatted(style)
            #expect(InternetDate.date(from: text) == (try? style.parse(text)), "\(text)")
        }
        for text in [
            "2024-02-29T12:00:00Z", "2023-02-29T12:00:00Z", "2026-04-31T00:00:00Z", "2026-12-01T24:00:00Z",
            "2026-12-01T23:60:00Z", "2026-12-01T23:59:60Z", "1600-12-31T23:59:59Z", "0000-01-01T00:00:00Z",
            "2026-12-01t17:00:00z", "2026-12-01T17:00:00+00:00", "+2026-12-01T17:00:00Z",
        ] {
            #expect(InternetDate.date(from: text) == (try? style.parse(text)), "\(text)")
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
