/// A value quoted for a one-line message: the command line's usage errors and the checkers' findings
/// quote a value the same way.
package enum QuotedValue {
    /// `value` in quotes as it can stand in a one-line message: control characters escaped
    /// (`\n`, `\u{7}`), and a value longer than 256 characters (no path is) cut to its first 40 with
    /// the length said.
    package static func text(_ value: String) -> String {
        let shown = escaped(value, quotes: true)
        let characters = Array(shown)
        guard characters.count > 256 else { return "\"" + shown + "\"" }
        return "\"" + String(characters.prefix(40)) + "…\" (\(value.count) characters)"
    }

    /// `text` as one line on a terminal: every control or format character (newline, ESC, a
    /// bidirectional override) escaped as `\u{1b}`, `\n`; everything else, quotes and backslashes
    /// included, as given. Every error line the command line prints goes through this (a value
    /// already quoted by ``text(_:)`` has none left, so it reads the same).
    package static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return escaped(text, quotes: false)
    }

    /// `text` as lines on a terminal or in a Markdown file: every control or format character escaped
    /// (`\u{1b}`, `\r`, a bidirectional override) but the line breaks and tabs that lay it out. Text an
    /// app or a file supplied (a status value, a label, an entitlement string) goes through this
    /// wherever it is printed: standard output, progress, summary.md, entitlements.diff.
    package static func lines(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\t" || !isControl(scalar) {
                shown.unicodeScalars.append(scalar)
            } else if scalar == "\r" {
                shown += "\\r"
            } else {
                shown += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return shown
    }

    /// Every control or format character of `text` escaped (`\n`, `\u{1b}`), and with `quotes` its
    /// quotes and backslashes too.
    private static func escaped(_ text: String, quotes: Bool) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\r": shown += "\\r"
            case "\t": shown += "\\t"
            case "\"" where quotes: shown += "\\\""
            case "\\" where quotes: shown += "\\\\"
            default:
                if isControl(scalar) {
                    shown += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
        }
        return shown
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
    }
}
