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
        let seconds = (milliseconds / 1000).rounded(.down)
        if let text = civilText(seconds) { return text }
        return Date(timeIntervalSince1970: seconds).formatted(style)
    }

    /// The date `text` holds, or nil when it holds none.
    public static func date(from text: String) -> Date? {
        if let seconds = civilSeconds(text) { return Date(timeIntervalSince1970: Double(seconds)) }
        return try? style.parse(text)
    }

    // MARK: Without the format style

    // The format style is made on first use, and its first use cost a v3 verify launch a twentieth of
    // its CPU (`perf record`); the text it writes and reads in the Gregorian years 1601-9999 is
    // plain arithmetic on days (Hinnant's civil-date algorithms). Anything else goes to the style.

    /// 1601-01-01T00:00:00Z and 9999-12-31T23:59:59Z, in seconds since 1970.
    private static let civilRange: ClosedRange<Int64> = -11_644_473_600...253_402_300_799

    /// The text of a whole number of seconds since 1970, or nil outside ``civilRange``.
    static func civilText(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds >= Double(civilRange.lowerBound), seconds <= Double(civilRange.upperBound) else {
            return nil
        }
        let total = Int64(seconds)
        var days = total / 86_400
        var second = total % 86_400
        if second < 0 {
            second += 86_400
            days -= 1
        }
        // civil_from_days: the Gregorian year, month and day of a count of days since 1970-01-01.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        var bytes = [UInt8]()
        bytes.reserveCapacity(20)
        func append(_ value: Int64, _ width: Int) {
            var divisor: Int64 = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, 4)
        bytes.append(UInt8(ascii: "-"))
        append(month, 2)
        bytes.append(UInt8(ascii: "-"))
        append(day, 2)
        bytes.append(UInt8(ascii: "T"))
        append(second / 3_600, 2)
        bytes.append(UInt8(ascii: ":"))
        append(second % 3_600 / 60, 2)
        bytes.append(UInt8(ascii: ":"))
        append(second % 60, 2)
        bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The seconds since 1970 of `yyyy-MM-ddTHH:mm:ssZ` with every field in its range and the year
    /// in 1601-9999, or nil (the style then reads the text, or refuses it).
    static func civilSeconds(_ text: String) -> Int64? {
        let utf8 = text.utf8
        guard utf8.count == 20 else { return nil }
        let bytes = Array(utf8)
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), bytes[19] == UInt8(ascii: "Z"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1_601...9_999).contains(year), (1...12).contains(month), hour < 24, minute < 60, second < 60
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths: [Int64] = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[Int(month - 1)] else { return nil }
        // days_from_civil.
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + second
    }
}
