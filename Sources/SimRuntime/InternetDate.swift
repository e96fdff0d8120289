import Foundation

/// ISO 8601 internet date and time to the second, UTC ("2026-12-01T17:00:00Z"): the text
/// `ISO8601DateFormatter()` writes, made without ICU.
///
/// Foundation's formatter builds ICU's date and number parsers the first time a process uses it,
/// which cost a quarter of a short app launch (`perf record` of a v3 verify launch); this goes
/// through `Date.ISO8601FormatStyle`, which FoundationEssentials implements natively. A date is
/// rounded to the millisecond (a half up) and then cut to the second, as CoreFoundation and ICU
/// do, so that the text is the formatter's byte for byte (`InternetDateTests` compares the two
/// over 20,000 dates, fractional ones and ones before 1970 included, and read its text back to the
/// same dates). On text the formatter never writes, the two readers may answer differently.
public enum InternetDate {
    private static let style = Date.ISO8601FormatStyle()

    /// `date` as text, to the second.
    public static func string(from date: Date) -> String {
        // CoreFoundation hands ICU the milliseconds plus a half, and ICU floors them.
        let milliseconds = (date.timeIntervalSince1970 * 1000 + 0.5).rounded(.down)
        return Date(timeIntervalSince1970: (milliseconds / 1000).rounded(.down)).formatted(style)
    }

    /// The date `text` holds, or nil when it holds none.
    public static func date(from text: String) -> Date? { try? style.parse(text) }
}
