/// JSON read and written without `JSONDecoder` and `JSONEncoder`, for the few texts every app
/// launch reads or writes (the launch context, the installed build.json's declaration, the status
/// file, the mutation log's lines): in a launched app those coders' first use was mostly the Swift
/// runtime's first-use work for the types they ask about (generic metadata, and a scan of every
/// protocol conformance record of the static executable per type), several percent of a launch
/// (docs/benchmarks.md).
///
/// Package-internal: each reader takes only the JSON the runner and the adopters write and hands
/// anything else to `JSONDecoder`; each writer writes exactly `JSONEncoder`'s bytes for its type,
/// which its tests compare over many values.

/// A parsed JSON value. A number keeps its text, read as the field it lands in needs.
package enum JSONValue: Sendable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    package var string: String? { if case .string(let value) = self { value } else { nil } }
    package var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    package var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    package var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    /// An integer written without a fraction or an exponent.
    package var int: Int? {
        guard case .number(let text) = self, !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            return nil
        }
        return Int(text)
    }
    package var int32: Int32? { int.flatMap { Int32(exactly: $0) } }
    package var double: Double? {
        guard case .number(let text) = self, let value = Double(text), value.isFinite else { return nil }
        return value
    }
    package var strings: [String]? {
        guard let array else { return nil }
        var result: [String] = []
        result.reserveCapacity(array.count)
        var index = 0
        while index < array.count {
            guard let string = array[index].string else { return nil }
            result.append(string)
            index += 1
        }
        return result
    }
}

extension JSONValue {
    /// An optional field as `decodeIfPresent` reads it: absent or null is `.some(nil)`; a value
    /// `read` does not take (the wrong type) is nil.
    package static func optional<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) -> T?? {
        guard let value else { return .some(nil) }
        if case .null = value { return .some(nil) }
        guard let read = read(value) else { return nil }
        return .some(read)
    }
}

/// RFC 8259 JSON over UTF-8 bytes (valid UTF-8: the caller checks text that did not come from a
/// Swift `String`); nil for anything it does not take.
///
/// It indexes an `UnsafePointer` and compares bytes with constants, not through generic
/// collection and range calls: app builds are usually debug builds, where those calls are not
/// specialized and cost several times the parse itself.
package struct JSONParser {
    package let bytes: UnsafePointer<UInt8>
    package let count: Int
    package var index = 0
    /// Nesting depth: the runner's contexts are four deep; a deep text goes to `JSONDecoder`.
    package var depth = 0

    /// Nil for an empty text (it has no base address, and is no JSON).
    package init?(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        self.bytes = base
        self.count = bytes.count
    }

    package static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    package func text(_ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
    }

    package mutating func document() -> JSONValue? {
        guard let value = value() else { return nil }
        skipSpace()
        return index == count ? value : nil
    }

    package mutating func skipSpace() {
        while index < count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { return }
            index += 1
        }
    }

    package mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let length = word.utf8CodeUnitCount
        guard count - index >= length else { return nil }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return nil }
        index += length
        return value
    }

    package mutating func value() -> JSONValue? {
        skipSpace()
        guard index < count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object()
        case UInt8(ascii: "["): return array()
        case UInt8(ascii: "\""): return string().map(JSONValue.string)
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        default: return number()
        }
    }

    package mutating func object() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { return nil }
        index += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard index < count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipSpace()
            guard index < count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let value = value(), fields.updateValue(value, forKey: key) == nil,
                let closed = next(closing: UInt8(ascii: "}"))
            else { return nil }
            if closed { return .object(fields) }
        }
    }

    package mutating func array() -> JSONValue? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else { return nil }
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            guard let element = value() else { return nil }
            elements.append(element)
            guard let closed = next(closing: UInt8(ascii: "]")) else { return nil }
            if closed { return .array(elements) }
        }
    }

    /// After an object's member or an array's element: past a comma, false; past the closing
    /// `bracket`, true; nil for anything else.
    private mutating func next(closing bracket: UInt8) -> Bool? {
        skipSpace()
        guard index < count, bytes[index] == UInt8(ascii: ",") || bytes[index] == bracket else { return nil }
        index += 1
        return bytes[index - 1] == bracket
    }

    /// A string at `index` (its opening quote).
    package mutating func string() -> String? {
        index += 1
        let start = index
        // Without escapes: the bytes as they are (the text came from a Swift String: valid UTF-8).
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let result = text(start, index)
                index += 1
                return result
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { return nil }
            index += 1
        }
        var scalars = Array(UnsafeBufferPointer(start: bytes + start, count: index - start))
        while index < count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(code) {
                        guard count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { return nil }
                        index += 2
                        guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(code) {
                        return nil
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    scalars.append(contentsOf: UTF8.encode(scalar)!)
                default: return nil
                }
            default:
                guard byte >= 0x20 else { return nil }
                scalars.append(byte)
            }
        }
        return nil
    }

    package mutating func hex4() -> UInt32? {
        guard count - index >= 4 else { return nil }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            code = code << 4 | UInt32(digit)
        }
        return code
    }

    /// A number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    package mutating func number() -> JSONValue? {
        let start = index
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.count, JSONParser.isDigit(parser.bytes[parser.index]) { parser.index += 1 }
            return parser.index - first
        }
        if index < count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { return nil }
        }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { return nil }
        }
        return .number(text(start, index))
    }
}

/// Writes JSON as `JSONEncoder` does with `.sortedKeys` and `.withoutEscapingSlashes`, compact or
/// with `.prettyPrinted`: keys are written in the order given (the caller gives them sorted by
/// their UTF-8 bytes, as `.sortedKeys` sorts), `"key" : value` and two spaces a level when
/// pretty, an empty array or object as `[`, two line breaks and the closing bracket at its
/// level; strings escaped as `JSONEncoder` escapes them (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`,
/// `\t`, other control characters as `\u00XX` in lower-case hex; `/`, DEL and everything
/// outside ASCII as they are).
package struct JSONOutput {
    package private(set) var bytes: [UInt8] = []
    private let pretty: Bool
    private var depth = 0
    /// Whether the next value is the first of its array or object.
    private var first = true

    package init(pretty: Bool) {
        self.pretty = pretty
        bytes.reserveCapacity(pretty ? 1024 : 160)
    }

    private mutating func separate() {
        if !first {
            bytes.append(UInt8(ascii: ","))
            if pretty { bytes.append(0x0A) }
        }
        first = false
        if pretty { indent() }
    }

    /// Two spaces a level. (Plain loops here and below: in a debug build each new generic
    /// sequence type, such as `repeatElement`'s or `reversed()`'s, costs the launch a scan of the
    /// executable's conformance records on first use.)
    private mutating func indent() {
        var count = 2 * depth
        while count > 0 {
            bytes.append(UInt8(ascii: " "))
            count -= 1
        }
    }

    /// Opens an object (`{`) or an array (`[`).
    package mutating func open(_ bracket: UInt8) {
        bytes.append(bracket)
        if pretty { bytes.append(0x0A) }
        depth += 1
        first = true
    }

    /// Closes the object (`}`) or array (`]`) opened last.
    package mutating func close(_ bracket: UInt8) {
        depth -= 1
        if pretty {
            bytes.append(0x0A)
            indent()
        }
        bytes.append(bracket)
        first = false
    }

    /// An object's key; its value follows.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        if pretty { bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20]) } else { bytes.append(UInt8(ascii: ":")) }
    }

    /// Starts an array's next element; its value follows.
    package mutating func element() { separate() }

    package mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return }
            var start = 0
            for index in 0..<utf8.count {
                let byte = base[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: index - start))
                start = index + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(start: base + start, count: utf8.count - start))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    package mutating func int(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let start = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        var low = start
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    package mutating func bool(_ value: Bool) {
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [
                UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"),
            ])
        }
    }

    /// A key and its string; nothing when it is nil, as a synthesized `Codable` leaves a nil optional out.
    package mutating func field(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// A key and its number; nothing when it is nil.
    package mutating func field(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        int(value)
    }

    /// A key and its array of strings; nothing when it is nil.
    package mutating func field(_ name: StaticString, _ list: [String]?) {
        guard let list else { return }
        key(name)
        strings(list)
    }

    /// An array of strings, each an element.
    package mutating func strings(_ list: [String]) {
        open(UInt8(ascii: "["))
        for text in list {
            element()
            string(text)
        }
        close(UInt8(ascii: "]"))
    }
}
