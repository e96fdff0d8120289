import Foundation

/// A build log without the known static-link notes: the plugin's copy of `scripts/quiet-build`'s rules
/// (a plugin can import no target of the package; Tests/UpgradeRunnerTests/ScriptUsageTests.swift pins
/// the script's). A statically linked app build's link makes gold print glibc's warnings that
/// `dlopen`, `getaddrinfo` and user and group lookups need the same glibc at run time and that the
/// toolchain's `mktemp` is dangerous, and clang notes that `-no-pie` is unused beside `-static`; with
/// them SwiftPM prints the link's verbose command lines. A command's output that holds nothing else
/// goes whole; any other line stays, with the command lines beside it.
struct BuildLog {
    /// The lines kept, in order.
    private(set) var shown: [String] = []
    /// How many known notes were dropped.
    private(set) var hidden = 0

    init(_ text: String) {
        var block: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if Self.isProgress(line) {
                take(block)
                block = []
                shown.append(line)
            } else {
                block.append(line)
            }
        }
        take(block)
        while shown.last == "" { shown.removeLast() }
    }

    private mutating func take(_ block: [String]) {
        let rest = block.filter { !Self.isNote($0) }
        hidden += block.count - rest.count
        if rest.count < block.count, rest.allSatisfy(Self.isEcho) { return }
        shown += rest
    }

    /// SwiftPM's progress: "[3/40] Compiling X", "Building for debugging...", "Build complete!".
    static func isProgress(_ line: String) -> Bool {
        Self.isCounted(line) || line.hasPrefix("Building for ")
            || line.hasPrefix("Build complete!") || line.hasPrefix("Build of product ")
            || line.hasPrefix("Compiling plugin ")
    }

    static func isNote(_ line: String) -> Bool {
        line.hasSuffix(
            "in statically linked applications requires at runtime the shared libraries from the glibc version used for linking")
            && line.contains(": warning: Using '")
            || line.contains("/swift_static/")
                && line.hasSuffix(": warning: the use of `mktemp' is dangerous, better use `mkstemp' or `mkdtemp'")
            || ["clang", "clang++"].contains(where: {
                line.hasPrefix($0 + ": warning: argument unused during compilation: '-no-pie'")
            })
    }

    /// "[3/40] Compiling X": a step of a count (no Regex: a plugin runs on macOS releases before 13).
    private static func isCounted(_ line: String) -> Bool {
        guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return false }
        let count = line[line.index(after: line.startIndex)..<close].split(separator: "/", omittingEmptySubsequences: false)
        return count.count == 2 && count.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
            && line[close...].hasPrefix("] ")
    }

    /// What SwiftPM prints of a link's verbose run: versions and command lines.
    static func isEcho(_ line: String) -> Bool {
        let prefixes = [
            "Swift version ", "Target: ", "clang version ", "Thread model: ", "InstalledDir: ",
            "Found candidate GCC installation: ", "Selected GCC installation: ", "Candidate multilib: ",
            "Selected multilib: ",
        ]
        if prefixes.contains(where: line.hasPrefix) { return true }
        // A command line: an absolute path to the tool, then its arguments (the linker's in quotes).
        let command = line.hasPrefix(" \"") ? line.dropFirst(2).prefix(while: { $0 != "\"" }) : line.prefix(while: { $0 != " " })
        guard command.hasPrefix("/"), let tool = command.split(separator: "/").last else { return false }
        return ["swift-autolink-extract", "clang", "clang++", "ld", "ld.gold", "ld.lld", "ld.bfd", "gold", "lld"].contains(
            String(tool))
    }

    /// What to write instead, when the build failed because Security's symbols were not in scope
    /// (`error: cannot find 'SecItemAdd' in scope`): most often the import form written before the
    /// `Security` product existed, `#if !canImport(Security) @_exported import SimSecurity #endif`,
    /// which exports nothing once the product is built in the same build. One line naming the first
    /// such file and symbol; nil when the log has none.
    static func securityImportHint(_ lines: [String]) -> String? {
        for line in lines {
            guard let error = line.range(of: ": error: cannot find '") else { continue }
            let symbol = line[error.upperBound...].prefix(while: { $0 != "'" })
            guard symbol.hasPrefix("Sec") || symbol.hasPrefix("kSec") || symbol.hasPrefix("errSec") else { continue }
            let location = line[..<error.lowerBound]
            return "\(location): '\(symbol)' is not in scope: where upgrade-runner's Security product is built, "
                + "`#if !canImport(Security) @_exported import SimSecurity #endif` imports nothing; depend on "
                + ".product(name: \"Security\", package: \"upgrade-runner\") and write `import Security` "
                + "(docs/simsecurity.md, \"import Security, as on iOS\")"
        }
        return nil
    }
}
