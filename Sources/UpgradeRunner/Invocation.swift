import Foundation
import GateExecution
import GateModel
import SimDevice

/// One parsed command line's positional arguments and what a command needs to run it. Its options
/// are not here: the command's options struct has read them (see ``OptionValues``).
struct Invocation {
    private let parsed: ParsedArguments
    let spec: CommandSpec
    let tool: Tool

    init(parsed: ParsedArguments, spec: CommandSpec, tool: Tool) {
        self.parsed = parsed
        self.spec = spec
        self.tool = tool
    }

    var console: Console { tool.console }

    /// The positional `argument` (the parser has checked that required ones are there). It is read by
    /// its ``ArgumentSpec``, never a name: asking for one the command's spec does not declare traps in
    /// a debug build (and reads as absent), as an undeclared option does (``OptionValues``).
    func argument(_ argument: ArgumentSpec) -> String { optionalArgument(argument) ?? "" }

    /// The positional `argument`, if given.
    func optionalArgument(_ argument: ArgumentSpec) -> String? {
        guard spec.arguments.contains(argument) else {
            assertionFailure("\(spec.path.joined(separator: " ")) reads \(argument.name), which its spec does not declare")
            return nil
        }
        return parsed.argument(argument.name, in: spec)
    }

    /// Every positional argument, in the order given.
    var positionals: [String] { parsed.positionals }

    /// The words after `--`.
    var passthrough: [String] { parsed.passthrough }

    /// `path` made absolute against the working directory.
    func absolute(_ path: String) -> String { WorkingDirectory.absolute(path, environment: tool.environment) }

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
