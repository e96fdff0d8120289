import Foundation
import UpgradeContract

/// Reads a launch context's JSON without `JSONDecoder`: every launched app reads one before its
/// code runs, and `JSONDecoder` spent most of its time there on the Swift runtime's first-use work
/// for the context's types (generic metadata, and a scan of every protocol conformance record of
/// the static executable for each type it asks about), a sixth of a small app's launch
/// (docs/benchmarks.md).
///
/// It takes only what the runner's encoder writes: plain JSON, integers without a fraction or an
/// exponent where the context holds an integer, no duplicate keys. Anything else (and any value of
/// the wrong shape) answers nil, and ``LaunchContext/decode(_:)`` hands the text to `JSONDecoder`,
/// which reads it or names what is wrong, as before. Keys the context does not know are skipped,
/// as `JSONDecoder` skips them. `SimRuntimeTests` compares the two readers.
enum LaunchContextReader {
    /// The context in `text`, or nil when this reader does not take it.
    static func read(_ text: String) -> LaunchContext? {
        var text = text
        return text.withUTF8 { bytes -> LaunchContext? in
            guard var parser = Parser(bytes: bytes), let value = parser.document() else { return nil }
            return context(value)
        }
    }

    /// A parsed JSON value. A number keeps its text, read as the field it lands in needs.
    enum Value {
        case string(String)
        case number(String)
        case bool(Bool)
        case null
        case array([Value])
        case object([String: Value])

        var string: String? { if case .string(let value) = self { value } else { nil } }
        var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
        var object: [String: Value]? { if case .object(let value) = self { value } else { nil } }
        var array: [Value]? { if case .array(let value) = self { value } else { nil } }
        /// An integer written without a fraction or an exponent.
        var int: Int? {
            guard case .number(let text) = self, !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
                return nil
            }
            return Int(text)
        }
        var int32: Int32? { int.flatMap { Int32(exactly: $0) } }
        var double: Double? {
            guard case .number(let text) = self, let value = Double(text), value.isFinite else { return nil }
            return value
        }
        var strings: [String]? {
            guard let array else { return nil }
            var result: [String] = []
            result.reserveCapacity(array.count)
            for element in array {
                guard let string = element.string else { return nil }
                result.append(string)
            }
            return result
        }
    }

    // MARK: The context's fields

    /// An optional field: absent or null is nil (`decodeIfPresent`); `.some(nil)` is a value of the wrong type.
    private static func optional<T>(_ value: Value?, _ read: (Value) -> T?) -> T?? {
        guard let value, !isNull(value) else { return .some(nil) }
        guard let read = read(value) else { return nil }
        return .some(read)
    }

    private static func isNull(_ value: Value) -> Bool { if case .null = value { true } else { false } }

    static func context(_ value: Value) -> LaunchContext? {
        guard let fields = value.object,
            let udid = fields["udid"]?.string,
            let deviceDirectory = fields["deviceDirectory"]?.string,
            let bundleID = fields["bundleID"]?.string,
            let identity = fields["identity"].flatMap(identity),
            let runtime = fields["runtime"]?.string.flatMap(runtimeVersion),
            let keychainPath = fields["keychainPath"]?.string,
            let dataContainer = fields["dataContainer"]?.string,
            let groups = fields["appGroupContainers"]?.object,
            let lockStatePath = fields["lockStatePath"]?.string,
            let clock = fields["clock"]?.double,
            let arguments = fields["arguments"]?.strings,
            let faultPlan = fields["faultPlan"].flatMap(faultPlan),
            let mutationLogPath = optional(fields["mutationLogPath"], { $0.string }),
            let passcodeSet = fields["passcodeSet"]?.bool,
            let background = optional(fields["background"], { $0.bool }),
            let biometryGeneration = optional(fields["biometryGeneration"], { $0.int }),
            let launcherPID = optional(fields["launcherPID"], { $0.int32 }),
            let appExtension = optional(fields["appExtension"], appExtension),
            let steps = optional(fields["steps"], stepChannel)
        else { return nil }
        var containers: [String: String] = [:]
        containers.reserveCapacity(groups.count)
        for (group, path) in groups {
            guard let path = path.string else { return nil }
            containers[group] = path
        }
        var context = LaunchContext(
            udid: udid, deviceDirectory: deviceDirectory, bundleID: bundleID, identity: identity, runtime: runtime,
            keychainPath: keychainPath, dataContainer: dataContainer, appGroupContainers: containers,
            lockStatePath: lockStatePath, clock: Date(timeIntervalSince1970: clock), arguments: arguments,
            faultPlan: faultPlan, mutationLogPath: mutationLogPath, passcodeSet: passcodeSet, launcherPID: launcherPID)
        context.background = background
        context.biometryGeneration = biometryGeneration
        context.appExtension = appExtension
        context.steps = steps
        return context
    }

    /// The runtime as the runner writes it (`iOS 17.5`, ``RuntimeVersion/description``) without
    /// Foundation's string searches, which were half of this reader's time on first use; any other
    /// spelling as ``RuntimeVersion`` reads it.
    static func runtimeVersion(_ text: String) -> RuntimeVersion? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 7, utf8.count <= 16, utf8[0] == UInt8(ascii: "i"), utf8[1] == UInt8(ascii: "O"),
            utf8[2] == UInt8(ascii: "S"), utf8[3] == UInt8(ascii: " "),
            let dot = utf8[4...].firstIndex(of: UInt8(ascii: "."))
        else { return RuntimeVersion(text) }
        func number(_ digits: ArraySlice<UInt8>) -> Int? {
            guard !digits.isEmpty, digits.count <= 4 else { return nil }
            var value = 0
            for digit in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
                value = value * 10 + Int(digit - UInt8(ascii: "0"))
            }
            return value
        }
        guard let major = number(utf8[4..<dot]), (2...99).contains(major), let minor = number(utf8[(dot + 1)...]) else {
            return RuntimeVersion(text)
        }
        return RuntimeVersion(major: major, minor: minor)
    }

    static func identity(_ value: Value) -> AppIdentity? {
        guard let fields = value.object,
            let bundleID = fields["bundleID"]?.string,
            let applicationIdentifier = optional(fields["applicationIdentifier"], { $0.string }),
            let keychainAccessGroups = fields["keychainAccessGroups"]?.strings,
            let applicationGroups = fields["applicationGroups"]?.strings
        else { return nil }
        return AppIdentity(
            bundleID: bundleID, applicationIdentifier: applicationIdentifier,
            keychainAccessGroups: keychainAccessGroups, applicationGroups: applicationGroups)
    }

    static func faultPlan(_ value: Value) -> FaultPlan? {
        guard let fields = value.object, let list = fields["faults"]?.array,
            let crashAfterMutation = optional(fields["crashAfterMutation"], { $0.int }),
            let powerLoss = optional(fields["powerLoss"], { $0.bool })
        else { return nil }
        var faults: [Fault] = []
        faults.reserveCapacity(list.count)
        for element in list {
            guard let fault = fault(element) else { return nil }
            faults.append(fault)
        }
        return FaultPlan(faults: faults, crashAfterMutation: crashAfterMutation, powerLoss: powerLoss ?? false)
    }

    static func fault(_ value: Value) -> Fault? {
        guard let fields = value.object,
            let operationName = fields["operation"]?.string, let operation = StoreOperation(rawValue: operationName),
            let call = fields["call"]?.int,
            let action = fields["action"]?.object, let kind = action["kind"]?.string
        else { return nil }
        switch kind {
        case "status":
            guard let status = action["status"]?.int32 else { return nil }
            return Fault(operation, call: call, .status(status))
        case "dropWrite": return Fault(operation, call: call, .dropWrite)
        default: return nil
        }
    }

    static func appExtension(_ value: Value) -> LaunchContext.AppExtension? {
        guard let fields = value.object, let name = fields["name"]?.string, let kind = fields["kind"]?.string,
            let host = fields["hostBundleID"]?.string
        else { return nil }
        return LaunchContext.AppExtension(name: name, kind: kind, hostBundleID: host)
    }

    static func stepChannel(_ value: Value) -> StepChannel? {
        guard let fields = value.object, let grant = fields["grantPath"]?.string, let report = fields["reportPath"]?.string
        else { return nil }
        return StepChannel(grantPath: grant, reportPath: report)
    }

    // MARK: JSON

    /// RFC 8259 JSON over UTF-8 bytes; nil for anything it does not take.
    ///
    /// It indexes an `UnsafePointer` and compares bytes with constants, not through generic
    /// collection and range calls: app builds are usually debug builds, where those calls are not
    /// specialized and cost several times the parse itself.
    struct Parser {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var index = 0
        /// Nesting depth: the runner's contexts are four deep; a deep text goes to `JSONDecoder`.
        var depth = 0

        /// Nil for an empty text (it has no base address, and is no JSON).
        init?(bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
            self.bytes = base
            self.count = bytes.count
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        func text(_ start: Int, _ end: Int) -> String {
            String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
        }

        mutating func document() -> Value? {
            guard let value = value() else { return nil }
            skipSpace()
            return index == count ? value : nil
        }

        mutating func skipSpace() {
            while index < count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { return }
                index += 1
            }
        }

        mutating func literal(_ word: StaticString, _ value: Value) -> Value? {
            let length = word.utf8CodeUnitCount
            guard count - index >= length else { return nil }
            for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += length
            return value
        }

        mutating func value() -> Value? {
            skipSpace()
            guard index < count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object()
            case UInt8(ascii: "["): return array()
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func object() -> Value? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 32 else { return nil }
            index += 1
            var fields: [String: Value] = [:]
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
                guard let value = value(), fields.updateValue(value, forKey: key) == nil else { return nil }
                skipSpace()
                guard index < count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "}") else { return nil }
                index += 1
                return .object(fields)
            }
        }

        mutating func array() -> Value? {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 32 else { return nil }
            index += 1
            var elements: [Value] = []
            skipSpace()
            if index < count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard let element = value() else { return nil }
                elements.append(element)
                skipSpace()
                guard index < count else { return nil }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard bytes[index] == UInt8(ascii: "]") else { return nil }
                index += 1
                return .array(elements)
            }
        }

        /// A string at `index` (its opening quote).
        mutating func string() -> String? {
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

        mutating func hex4() -> UInt32? {
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
        mutating func number() -> Value? {
            let start = index
            func digits(_ parser: inout Parser) -> Int {
                let first = parser.index
                while parser.index < parser.count, Parser.isDigit(parser.bytes[parser.index]) { parser.index += 1 }
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
}
