import Foundation
import GateExecution
import GateModel

/// The options of one command line, read by the ``OptionSpec`` values its command declares: there is
/// no string key to mistype, and reading an option that is not in the command's spec is a programming
/// error (it traps in debug builds; ``OptionValues/undeclared`` lists such reads for the test of
/// every command's options).
///
/// Only a command's options struct sees this value: ``Command`` builds the struct once, before the
/// command runs, and the command reads its typed fields.
struct OptionValues {
    let spec: CommandSpec
    private let parsed: ParsedArguments
    let environment: [String: String]
    private let log: UndeclaredReads?

    /// `log` nil: an undeclared read traps in debug; else it is recorded there.
    init(spec: CommandSpec, parsed: ParsedArguments, environment: [String: String], log: UndeclaredReads? = nil) {
        self.spec = spec
        self.parsed = parsed
        self.environment = environment
        self.log = log
    }

    /// The value of `option` (the last one given), if given.
    func value(_ option: OptionSpec) -> String? {
        check(option)
        return parsed.options[option.name]
    }

    /// Every value of a repeatable option, in the order given.
    func values(_ option: OptionSpec) -> [String] {
        check(option)
        return parsed.repeated[option.name] ?? []
    }

    func flag(_ option: OptionSpec) -> Bool {
        check(option)
        return parsed.flags.contains(option.name)
    }

    /// An integer option within `range`.
    func integer(_ option: OptionSpec, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(option) else { return nil }
        guard let value = Int(text), range.contains(value) else { throw Self.outOfRange(text, option, range) }
        return value
    }

    /// `--jobs: "0" is not a whole number from 1 to 64`.
    static func outOfRange(_ text: String, _ option: OptionSpec, _ range: ClosedRange<Int>) -> UsageError {
        .invalidValue(text, for: option.name, reason: "is not a whole number from \(range.lowerBound) to \(range.upperBound)")
    }

    /// `path` made absolute against the working directory (`~/` against `$HOME`).
    func absolute(_ path: String) -> String { WorkingDirectory.absolute(path, environment: environment) }

    private func check(_ option: OptionSpec) {
        guard !spec.options.contains(option) else { return }
        if let log {
            log.record(option.name)
        } else {
            assertionFailure("\(spec.name) reads \(option.name), which its spec does not declare")
        }
    }
}

/// The options a command's options struct read without declaring them (see ``OptionValues``).
final class UndeclaredReads: @unchecked Sendable {
    private let lock = NSLock()
    private var names: [String] = []

    func record(_ name: String) { lock.withLock { names.append(name) } }
    var all: [String] { lock.withLock { names } }
}

/// Paths on the command line are relative to the working directory.
enum WorkingDirectory {
    static func absolute(_ path: String, environment: [String: String]) -> String {
        if path.hasPrefix("/") { return path }
        if path.hasPrefix("~/") { return (environment["HOME"] ?? NSHomeDirectory()) + path.dropFirst() }
        return FileManager.default.currentDirectoryPath + "/" + path
    }
}
