import Foundation
import SimDevice

/// One parsed command line and what a command needs to run it (stage two turns it into meaning).
struct Invocation {
    let parsed: ParsedArguments
    let spec: CommandSpec
    let tool: Tool

    var console: Console { tool.console }

    /// The positional argument `name` (the parser has checked that required ones are there).
    func argument(_ name: String) -> String { parsed.argument(name, in: spec) ?? "" }

    func option(_ name: String) -> String? { parsed.options[name] }

    /// Every value of a repeatable option, in the order given.
    func options(_ name: String) -> [String] { parsed.repeated[name] ?? [] }

    func flag(_ name: String) -> Bool { parsed.flags.contains(name) }

    /// The devices root from `--devices-root`, the environment, or the default.
    var deviceSet: DeviceSet {
        DeviceSet(root: absolute(DeviceSet.resolveRoot(flag: option("--devices-root"), environment: tool.environment)))
    }

    /// The device named by the `DEVICE` argument.
    func device() throws -> Device { try deviceSet.device(argument("DEVICE")) }

    /// The device named by the `DEVICE` argument, taken for this command.
    func session() throws -> DeviceSession { try device().acquire() }

    /// `path` made absolute against the working directory.
    func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/") { return (tool.environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst() }
        return FileManager.default.currentDirectoryPath + "/" + path
    }

    /// An integer option within `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(text, for: name, reason: "is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// Prints `value` as JSON with sorted keys.
    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = GateJSON.encoder(pretty: true)
        encoder.dateEncodingStrategy = .iso8601
        console.output(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// Dates on the command line and in output: ISO 8601, UTC, to the second.
enum ClockText {
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func parse(_ text: String, for name: String) throws(UsageError) -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        if let date = formatter.date(from: text) { return date }
        throw .invalidValue(text, for: name, reason: "is not an ISO 8601 date (2024-05-01 or 2024-05-01T12:00:00Z)")
    }
}
