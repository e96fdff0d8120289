import GateExecution
import GateModel
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
        }
    }

    /// `value` in quotes as it can stand in a one-line message (``QuotedValue/text(_:)``).
    static func quoted(_ value: String) -> String { QuotedValue.text(value) }

    /// The closest of `candidates` to `word`, when it is close enough to be a likely typo.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, word.count / 3) else { return nil }
        return best
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = a[i - 1] == b[j - 1] ? previous : min(previous, row[j], row[j - 1]) + 1
                previous = current
            }
        }
        return row[b.count]
    }
}
