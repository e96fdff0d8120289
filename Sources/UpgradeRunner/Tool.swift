import Foundation
import GateExecution
import GateModel

/// Runs the `upgrade-runner` command line with `arguments` (argv, the program name first) and
/// returns the exit code: 0 pass, 1 fail, 2 bad usage or bad input, 3 unknown.
public func main(_ arguments: [String]) -> Int32 {
    // Before anything else: SIGINT or SIGTERM at any moment ends the process with exit code 3 and
    // takes its apps and temporary devices with it.
    InterruptHandling.install()
    let code = Tool(console: .standard, environment: ProcessInfo.processInfo.environment).run(Array(arguments.dropFirst()))
    InterruptHandling.waitIfInterrupted()
    return code
}

/// The command line as a value: tests run it in-process with literal arguments and a captured console.
public struct Tool: Sendable {
    public var console: Console
    public var environment: [String: String]

    public init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }

    /// Runs `words` in-process with `environment`, capturing what it prints (for tests and tools
    /// that drive the command line as a user would).
    public static func capture(_ words: [String], environment: [String: String]) -> (code: Int32, output: String, error: String) {
        let lock = NSLock()
        nonisolated(unsafe) var output = ""
        nonisolated(unsafe) var error = ""
        let console = Console(
            output: { text in lock.withLock { output += text } },
            error: { text in lock.withLock { error += text } })
        let code = Tool(console: console, environment: environment).run(words)
        return lock.withLock { (code, output, error) }
    }

    /// Runs the words after the program name.
    public func run(_ words: [String]) -> Int32 {
        TemporaryDevices.removeAbandoned()
        do {
            return try dispatch(words)
        } catch {
            // An error that the interrupt caused is not the run's outcome: the handler ends the process.
            InterruptHandling.waitIfInterrupted()
            let (message, code) = ExitStatus.report(error)
            console.error("error: " + message)
            return code
        }
    }

    private func dispatch(_ words: [String]) throws -> Int32 {
        let specs = CommandTable.specs
        guard let first = words.first else {
            console.error(HelpText.overview(specs, prefix: []), terminator: "")
            return ExitStatus.usage
        }
        if first == "--help" || first == "-h" || first == "help" {
            let topic = Array(words.dropFirst())
            if let command = CommandTable.command(matching: topic), command.spec.path == topic {
                console.output(HelpText.help(command.spec), terminator: "")
            } else if topic.isEmpty || CommandTable.groups.contains(topic[0]) {
                console.output(HelpText.overview(specs, prefix: Array(topic.prefix(1))), terminator: "")
            } else {
                throw UsageError.unknownCommand(topic.joined(separator: " "), hint: nil)
            }
            return ExitStatus.pass
        }
        guard let command = CommandTable.command(matching: words) else {
            if CommandTable.groups.contains(first) {
                let rest = words.dropFirst()
                if rest.isEmpty || rest.first == "--help" || rest.first == "-h" {
                    let text = HelpText.overview(specs, prefix: [first])
                    if rest.isEmpty {
                        console.error(text, terminator: "")
                        return ExitStatus.usage
                    }
                    console.output(text, terminator: "")
                    return ExitStatus.pass
                }
                let known = specs.filter { $0.path.first == first }.compactMap { $0.path.dropFirst().first }
                throw UsageError.unknownCommand(
                    "\(first) \(rest.first!)",
                    hint: UsageError.suggestion(for: rest.first!, among: known).map { "\(first) \($0)" })
            }
            throw UsageError.unknownCommand(first, hint: UsageError.suggestion(for: first, among: specs.map { $0.path[0] }))
        }
        let parsed = try ParsedArguments.parse(Array(words.dropFirst(command.spec.path.count)), for: command.spec)
        if parsed.help {
            console.output(HelpText.help(command.spec), terminator: "")
            return ExitStatus.pass
        }
        return try command.run(
            OptionValues(spec: command.spec, parsed: parsed, environment: environment),
            Invocation(parsed: parsed, spec: command.spec, tool: self))
    }
}

/// Where the command line writes: results to standard output, diagnostics to standard error.
public struct Console: Sendable {
    private let out: @Sendable (String) -> Void
    private let err: @Sendable (String) -> Void
    /// Whether standard error is a terminal (not a dumb one): progress is then one live line.
    public let errorIsTerminal: Bool

    public init(
        output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void,
        errorIsTerminal: Bool = false
    ) {
        self.out = output
        self.err = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// Writes `text` to standard output, its control characters escaped (``QuotedValue/lines(_:)``):
    /// results carry app- and file-supplied text, which never reaches the terminal raw.
    public func output(_ text: String, terminator: String = "\n") { out(QuotedValue.lines(text) + terminator) }
    /// Writes `text` to standard error, escaped as ``output(_:terminator:)`` is, but for the live
    /// progress line's own reset (`\r`, erase line) at its start.
    public func error(_ text: String, terminator: String = "\n") {
        let reset = GateProgress.liveReset
        if text.hasPrefix(reset) {
            err(reset + QuotedValue.lines(String(text.dropFirst(reset.count))) + terminator)
        } else {
            err(QuotedValue.lines(text) + terminator)
        }
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) },
        errorIsTerminal: isatty(2) != 0 && ProcessInfo.processInfo.environment["TERM"] != "dumb")
}
