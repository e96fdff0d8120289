import Foundation

/// One property-list value, as entitlements hold them: a closed, `Sendable` mirror of Foundation's plist types.
public enum PlistValue: Sendable, Hashable {
    /// `<string>`.
    case string(String)
    /// `<integer>`.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`.
    case date(Date)
    /// `<data>`.
    case data(Data)
    /// `<array>`.
    case array([PlistValue])
    /// `<dict>`.
    case dictionary([String: PlistValue])

    /// The string, when this is a string.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, when this is a boolean.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [PlistValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The strings of an array of strings (other elements skipped), or a lone string as a one-element list.
    public var strings: [String] {
        switch self {
        case .string(let value): return [value]
        case .array(let values): return values.compactMap(\.string)
        default: return []
        }
    }

    /// The entries, when this is a dictionary.
    public var dictionary: [String: PlistValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The plist type's name, for messages (`string`, `array`, ...).
    public var typeName: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .real: "real"
        case .bool: "boolean"
        case .date: "date"
        case .data: "data"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    /// The type's name with its article, for messages (`a string`, `an array`).
    public var typeNameWithArticle: String {
        let name = typeName
        return ("aeiou".contains(name.prefix(1)) ? "an " : "a ") + name
    }

    /// A compact, deterministic one-line rendering: JSON-like, dictionary keys sorted, dates in ISO 8601 UTC.
    public var rendered: String {
        switch self {
        case .string(let value): return Self.quote(value)
        case .integer(let value): return String(value)
        case .real(let value): return String(value)
        case .bool(let value): return value ? "true" : "false"
        case .date(let value): return Self.iso8601(value)
        case .data(let value): return "<" + value.map { String(format: "%02x", $0) }.joined() + ">"
        case .array(let values): return "[" + values.map(\.rendered).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            let inner = entries.keys.sorted().map { "\(Self.quote($0)): \(entries[$0]?.rendered ?? "")" }
            return "{" + inner.joined(separator: ", ") + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `2030-01-02T03:04:05Z`: the date in UTC, to the second.
    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}

extension PlistValue: Encodable {
    /// Encodes as plain JSON: dates as ISO 8601 strings, data as base64.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .date(let value): try container.encode(Self.iso8601(value))
        case .data(let value): try container.encode(value.base64EncodedString())
        case .array(let values): try container.encode(values)
        case .dictionary(let entries): try container.encode(entries)
        }
    }
}

extension PlistValue {
    /// Converts what `PropertyListSerialization` returned; nil for a type no property list can hold.
    init?(foundation value: Any) {
        switch value {
        case let value as String: self = .string(value)
        case let value as Date: self = .date(value)
        case let value as Data: self = .data(value)
        case let values as [Any]:
            var converted: [PlistValue] = []
            for element in values {
                guard let element = PlistValue(foundation: element) else { return nil }
                converted.append(element)
            }
            self = .array(converted)
        case let entries as [String: Any]:
            var converted: [String: PlistValue] = [:]
            for (key, element) in entries {
                guard let element = PlistValue(foundation: element) else { return nil }
                converted[key] = element
            }
            self = .dictionary(converted)
        default:
            // Booleans arrive as Swift `Bool` on Linux and as CFBoolean-backed NSNumber on Darwin; both before Int,
            // because an NSNumber holding 1 also casts to Bool.
            if type(of: value) == Bool.self, let flag = value as? Bool {
                self = .bool(flag)
            } else if let number = value as? NSNumber {
                let kind = String(cString: number.objCType)
                if kind == "c" || kind == "B" {
                    self = .bool(number.boolValue)
                } else if kind == "d" || kind == "f" {
                    self = .real(number.doubleValue)
                } else {
                    self = .integer(number.int64Value)
                }
            } else {
                return nil
            }
        }
    }

    /// The Foundation object `PropertyListSerialization` writes for this value.
    var foundation: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return NSNumber(value: value)
        case .real(let value): return NSNumber(value: value)
        case .bool(let value): return value
        case .date(let value): return value
        case .data(let value): return value
        case .array(let values): return values.map(\.foundation)
        case .dictionary(let entries): return entries.mapValues(\.foundation)
        }
    }
}
