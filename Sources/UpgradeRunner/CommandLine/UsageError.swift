import GateExecution
import GateModel
import SimRuntime
/// A command line that cannot be run as written. Each case names the flag, argument or word.
enum UsageError: Error, Equatable, CustomStringConvertible {
    case missingCommand
    case unknownCommand(String, hint: String?)
    case unknownOption(String, command: String, hint: String?)
    case missingValue(option: String, command: String)
    case unexpectedValue(option: String, command: String)
    case missingArgument(String, command: String)
    case unexpectedArgument(String, command: String)
    case invalidValue(String, for: String, reason: String)
    case missingOption(String, command: String)
    /// A single-valued option given twice, with its two values (a flag given twice means what it
    /// means once).
    case repeatedOption(String, command: String, first: String, second: String)

    var description: String {
        switch self {
        case .missingCommand:
            return "no command given; see upgrade-runner --help"
        case .unknownCommand(let word, let hint):
            return "unknown command \"\(word)\"" + (hint.map { "; did you mean \"\($0)\"?" } ?? "; see upgrade-runner --help")
        case .unknownOption(let option, let command, let hint):
            return "\(command): unknown option \(option)"
                + (hint.map { "; did you mean \($0)?" } ?? "; see upgrade-runner \(command) --help")
        case .missingValue(let option, let command):
            return "\(command): option \(option) needs a value"
        case .unexpectedValue(let option, let command):
            return "\(command): option \(option) takes no value"
        case .missingArgument(let name, let command):
            return "\(command): missing argument \(name); see upgrade-runner \(command) --help"
        case .unexpectedArgument(let value, let command):
            return "\(command): unexpected argument \(Self.quoted(value))"
        case .invalidValue(let value, let name, let reason):
            return "\(name): \(Self.quoted(value)) \(reason)"
        case .missingOption(let option, let command):
            return "\(command): option \(option) is required; see upgrade-runner \(command) --help"
        case .repeatedOption(let option, let command, let first, let second):
            return "\(command): option \(option) is given twice (\(Self.quoted(first)) and \(Self.quoted(second))); give it once"
        }
    }

    /// `value` in quotes as it can stand in a one-line message (``QuotedValue/text(_:)``).
    static func quoted(_ value: String) -> String { QuotedValue.text(value) }

    /// The closest of `candidates` to `word`, when it is close enough to be a likely typo.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        Spelling.suggestion(for: word, among: candidates)
    }
}
