import Foundation

/// A parser for the `[Dict]`/`[Key]`/`[Value]` text form that `codesign -d --entitlements -` prints without `--xml`.
///
/// Nesting is carried by indentation only: a container's members are the lines below it indented further than it.
enum CodesignTextForm {
    struct Line {
        let number: Int
        let indent: Int
        let tag: String
        let rest: String
    }

    static func parse(_ text: String, file: String) throws(EntitlementsError) -> [String: PlistValue] {
        var lines: [Line] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            var indent = 0
            var start = line.startIndex
            while start < line.endIndex, line[start] == " " || line[start] == "\t" {
                indent += line[start] == "\t" ? 4 : 1
                start = line.index(after: start)
            }
            let content = line[start...]
            guard content.hasPrefix("["), let close = content.firstIndex(of: "]") else {
                throw EntitlementsError(
                    file,
                    "line \(index + 1): expected a [Tag] such as [Key] or [String], "
                        + "found \"\(content.prefix(60))\"")
            }
            let tag = String(content[content.index(after: content.startIndex)..<close])
            var rest = content[content.index(after: close)...]
            if rest.hasPrefix(" ") { rest = rest.dropFirst() }
            lines.append(Line(number: index + 1, indent: indent, tag: tag, rest: String(rest)))
        }
        var parser = Parser(lines: lines, file: file)
        guard let first = lines.first, first.tag == "Dict" else {
            throw EntitlementsError(file, "codesign text form does not start with [Dict]")
        }
        let value = try parser.value(above: -1)
        if parser.position < lines.count {
            throw EntitlementsError(file, "line \(lines[parser.position].number): text after the top-level [Dict]")
        }
        guard case .dictionary(let entries) = value else {
            throw EntitlementsError(file, "codesign text form is \(value.typeNameWithArticle), not a dictionary")
        }
        return entries
    }

    struct Parser {
        let lines: [Line]
        let file: String
        var position = 0
        var depth = 0

        func fail(_ line: Line, _ problem: String) -> EntitlementsError {
            EntitlementsError(file, "line \(line.number): \(problem)")
        }

        /// The next line, if it is indented deeper than `indent`.
        func peek(deeperThan indent: Int) -> Line? {
            guard position < lines.count, lines[position].indent > indent else { return nil }
            return lines[position]
        }

        /// Reads one value whose line is indented deeper than `indent`.
        mutating func value(above indent: Int) throws(EntitlementsError) -> PlistValue {
            guard let line = peek(deeperThan: indent) else {
                let last = lines[min(position, lines.count - 1)]
                throw fail(last, "a [Value] has no value below it")
            }
            guard depth < 64 else { throw fail(line, "nested more than 64 levels deep") }
            position += 1
            switch line.tag {
            case "Dict":
                depth += 1
                defer { depth -= 1 }
                var entries: [String: PlistValue] = [:]
                while let keyLine = peek(deeperThan: line.indent) {
                    guard keyLine.tag == "Key" else { throw fail(keyLine, "expected [Key] in a [Dict], found [\(keyLine.tag)]") }
                    position += 1
                    guard let valueLine = peek(deeperThan: line.indent), valueLine.tag == "Value" else {
                        throw fail(keyLine, "[Key] \(keyLine.rest) is not followed by [Value]")
                    }
                    position += 1
                    entries[keyLine.rest] = try value(above: valueLine.indent)
                }
                return .dictionary(entries)
            case "Array":
                depth += 1
                defer { depth -= 1 }
                var elements: [PlistValue] = []
                while peek(deeperThan: line.indent) != nil {
                    elements.append(try value(above: line.indent))
                }
                return .array(elements)
            case "String":
                return .string(line.rest)
            case "Bool":
                switch line.rest.lowercased() {
                case "true", "yes", "1": return .bool(true)
                case "false", "no", "0": return .bool(false)
                default: throw fail(line, "[Bool] \(line.rest) is neither true nor false")
                }
            case "Number", "Integer", "Real":
                if let integer = Int64(line.rest) { return .integer(integer) }
                if let real = Double(line.rest) { return .real(real) }
                throw fail(line, "[\(line.tag)] \(line.rest) is not a number")
            case "Data":
                let hex = line.rest.filter { !" <>".contains($0) }
                if let data = Data(base64Encoded: line.rest) { return .data(data) }
                if let data = CodesignTextForm.hexData(hex) { return .data(data) }
                throw fail(line, "[Data] is neither base64 nor hex")
            case "Date":
                let formatter = ISO8601DateFormatter()
                guard let date = formatter.date(from: line.rest) else { throw fail(line, "[Date] \(line.rest) is not ISO 8601") }
                return .date(date)
            default:
                throw fail(line, "unknown tag [\(line.tag)]")
            }
        }
    }

    static func hexData(_ hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return Data(bytes)
    }

    static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
