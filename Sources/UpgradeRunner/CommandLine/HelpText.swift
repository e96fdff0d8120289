import GateExecution
import GateModel
/// Help text, made from the same ``CommandSpec`` values that the parser reads.
enum HelpText {
    static let tool = "upgrade-runner"

    /// The usage line: `upgrade-runner device create NAME [--runtime VERSION] ...`.
    static func usage(_ spec: CommandSpec) -> String {
        var parts = [tool] + spec.path
        for argument in spec.arguments {
            let name = argument.repeating ? argument.name + "..." : argument.name
            parts.append(argument.optional ? "[\(name)]" : name)
        }
        for option in spec.options {
            parts.append("[\(option.name)\(option.value.map { " " + $0 } ?? "")]" + (option.repeats ? "..." : ""))
        }
        if let passthrough = spec.passthrough { parts.append("[-- \(passthrough.name)...]") }
        return parts.joined(separator: " ")
    }

    /// The full help of one command.
    static func help(_ spec: CommandSpec) -> String {
        var lines = ["USAGE: " + usage(spec), ""]
        lines.append(contentsOf: spec.discussion.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let arguments = spec.arguments + (spec.passthrough.map { [ArgumentSpec("-- " + $0.name + "...", $0.help)] } ?? [])
        if !arguments.isEmpty {
            lines.append("")
            lines.append("ARGUMENTS:")
            lines.append(contentsOf: table(arguments.map { ($0.name, $0.help) }))
        }
        lines.append("")
        lines.append("OPTIONS:")
        let options =
            spec.options.map { (($0.short.map { $0 + ", " } ?? "") + $0.name + ($0.value.map { " " + $0 } ?? ""), $0.help) } + [
                ("-h, --help", "Show this help.")
            ]
        lines.append(contentsOf: table(options))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The overview of a group of commands (the whole tool when `prefix` is empty).
    static func overview(_ specs: [CommandSpec], prefix: [String]) -> String {
        let members = specs.filter { Array($0.path.prefix(prefix.count)) == prefix }
        var lines: [String]
        if prefix.isEmpty {
            lines = [
                "USAGE: \(tool) COMMAND [ARGUMENTS] [OPTIONS]",
                "",
                "Runs old-to-new upgrade tests of iOS keychain migrations on simulated devices, on Linux.",
                "",
                "Exit codes: 0 pass, 1 fail, 2 bad usage or bad input, 3 unknown (the run did not complete).",
            ]
        } else {
            lines = ["USAGE: \(tool) \(prefix.joined(separator: " ")) SUBCOMMAND [ARGUMENTS] [OPTIONS]"]
        }
        lines.append("")
        lines.append(prefix.isEmpty ? "COMMANDS:" : "SUBCOMMANDS:")
        lines.append(
            contentsOf: table(members.map { (Array($0.path.dropFirst(prefix.count)).joined(separator: " "), $0.summary) }))
        lines.append("")
        lines.append("See '\(tool) \((prefix + ["COMMAND"]).joined(separator: " ")) --help' for the arguments of each.")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ rows: [(String, String)]) -> [String] {
        let width = max(24, (rows.map(\.0.count).max() ?? 0) + 2)
        return rows.map { name, help in
            "  " + name + String(repeating: " ", count: max(1, width - name.count)) + help
        }
    }
}
