import GateExecution
import GateModel
/// Stage one of parsing: the words after the command, sorted into options, flags, positionals and
/// pass-through arguments, checked against the command's spec but not yet given meaning.
///
/// Accepts `--flag`, `--opt value`, `--opt=value`, `-h`/`--help`, `--` (the rest passes through when
/// the command takes it) and positionals in any order.
struct ParsedArguments: Equatable, Sendable {
    var options: [String: String] = [:]
    /// Every value of a repeatable option, in the order given (``options`` keeps the last).
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var passthrough: [String] = []
    var help = false

    init() {}

    /// Parses `words` (everything after the command's own words) for `spec`.
    static func parse(_ words: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            if word == "--" {
                guard spec.passthrough != nil else {
                    if let extra = words.dropFirst(index).first { throw .unexpectedArgument(extra, command: spec.name) }
                    break
                }
                parsed.passthrough = Array(words[index...])
                break
            }
            if word == "-h" || word == "--help" {
                parsed.help = true
                continue
            }
            guard word.hasPrefix("-"), word.count > 1, !isNumber(word) else {
                parsed.positionals.append(word)
                continue
            }
            let (name, inlineValue) = split(word)
            guard let option = spec.option(name) else {
                throw .unknownOption(
                    name, command: spec.name,
                    hint: UsageError.suggestion(for: name, among: spec.options.map(\.name) + ["--help"]))
            }
            if option.isFlag {
                guard inlineValue == nil else { throw .unexpectedValue(option: name, command: spec.name) }
                parsed.flags.insert(option.name)
            } else {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < words.count, words[index] != "--" else { throw .missingValue(option: name, command: spec.name) }
                    value = words[index]
                    index += 1
                }
                // No option takes an empty value: `--out ""` is not the working directory and
                // `--builds ""` no list, whatever a script's unset variable meant.
                guard !value.isEmpty else { throw .invalidValue(value, for: option.name, reason: "is empty; give a value") }
                // A single-valued option given twice is a mistake, not "the last one wins": a
                // script that appends `--out b` to a line holding `--out a` writes somewhere else.
                if !option.repeats, let earlier = parsed.options[option.name] {
                    throw .repeatedOption(option.name, command: spec.name, first: earlier, second: value)
                }
                parsed.options[option.name] = value
                if option.repeats { parsed.repeated[option.name, default: []].append(value) }
            }
        }
        if parsed.help { return parsed }
        let fixed = spec.arguments.filter { !$0.repeating }
        if let repeating = spec.arguments.first(where: \.repeating) {
            if parsed.positionals.count < fixed.count + (repeating.optional ? 0 : 1) {
                let missing = parsed.positionals.count < fixed.count ? fixed[parsed.positionals.count].name : repeating.name
                throw .missingArgument(missing, command: spec.name)
            }
        } else {
            let required = fixed.filter { !$0.optional }.count
            if parsed.positionals.count < required {
                throw .missingArgument(fixed[parsed.positionals.count].name, command: spec.name)
            }
            if parsed.positionals.count > fixed.count {
                throw .unexpectedArgument(parsed.positionals[fixed.count], command: spec.name)
            }
        }
        return parsed
    }

    /// The positional named `name` in the spec, if given.
    func argument(_ name: String, in spec: CommandSpec) -> String? {
        guard let index = spec.arguments.firstIndex(where: { $0.name == name }), index < positionals.count else { return nil }
        return positionals[index]
    }

    private static func split(_ word: String) -> (String, String?) {
        guard let equals = word.firstIndex(of: "=") else { return (word, nil) }
        return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }

    /// `-5`, `-2d`: a negative number or duration is a positional, not an option.
    private static func isNumber(_ word: String) -> Bool { word.dropFirst().first?.isNumber == true }
}
