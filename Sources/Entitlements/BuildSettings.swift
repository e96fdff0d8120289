import Foundation

/// Build settings given outside a build: `NAME=VALUE` words (`--setting`), and files (`--settings FILE`) that are
/// an `.xcconfig` or what `xcodebuild -showBuildSettings` prints (text or `-json`).
public enum BuildSettings {
    /// How deep `#include` may nest; deeper is a loop.
    static let maximumIncludeDepth = 8

    /// The settings from `files` (later files win), then `assignments` on top, as `xcodebuild` lets a command-line
    /// setting override every file.
    /// - Throws: naming the file and line, or the `--setting` word, that does not read.
    public static func merged(assignments: [String], files: [String]) throws(EntitlementsError) -> [String: String] {
        var settings: [String: String] = [:]
        for file in files {
            settings.merge(try read(file: file), uniquingKeysWith: { $1 })
        }
        for word in assignments {
            let (name, value) = try assignment(word)
            settings[name] = value
        }
        return settings
    }

    /// `NAME=VALUE` split at the first `=`.
    /// - Throws: when there is no `=` or the name is not a build setting name.
    public static func assignment(_ word: String) throws(EntitlementsError) -> (name: String, value: String) {
        guard let equals = word.firstIndex(of: "="), isName(word[word.startIndex..<equals]) else {
            throw EntitlementsError("--setting \(word)", "expected NAME=VALUE, with NAME letters, digits and _")
        }
        return (String(word[word.startIndex..<equals]), String(word[word.index(after: equals)...]))
    }

    /// Reads a settings file, telling `xcodebuild -showBuildSettings` output (text or JSON) from an `.xcconfig` by
    /// its content.
    /// - Throws: when the file cannot be read or a line is neither a setting, a comment nor an include.
    public static func read(file: String, depth: Int = 0) throws(EntitlementsError) -> [String: String] {
        guard let data = FileManager.default.contents(atPath: file) else { throw EntitlementsError(file, "cannot read file") }
        let text = String(decoding: data, as: UTF8.self)
        let start = text.drop { $0.isWhitespace }
        if start.hasPrefix("[") || start.hasPrefix("{") { return try json(data, file: file) }
        if text.contains("Build settings for action") { return try shown(text, file: file) }
        return try xcconfig(text, file: file, depth: depth)
    }

    /// `xcodebuild -showBuildSettings`: `    NAME = value` lines under `Build settings for action build and target
    /// App:`. With several targets the first one's are used (pass `-target` to choose).
    static func shown(_ text: String, file: String) throws(EntitlementsError) -> [String: String] {
        var settings: [String: String] = [:]
        var blocks = 0
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("Build settings for action") {
                blocks += 1
                if blocks > 1 { break }
                continue
            }
            guard blocks == 1, !line.isEmpty else { continue }
            guard let (name, value) = setting(line) else {
                throw EntitlementsError(file, "line \(index + 1): expected NAME = value, found \"\(line.prefix(60))\"")
            }
            settings[name] = value
        }
        return settings
    }

    /// `xcodebuild -showBuildSettings -json`: an array of `{"target": ..., "buildSettings": {...}}`; the first
    /// target's settings.
    static func json(_ data: Data, file: String) throws(EntitlementsError) -> [String: String] {
        let object = try? JSONSerialization.jsonObject(with: data)
        let first = (object as? [[String: Any]])?.first ?? (object as? [String: Any])
        guard let values = first?["buildSettings"] as? [String: Any] else {
            throw EntitlementsError(file, "JSON is not xcodebuild -showBuildSettings -json output (no \"buildSettings\")")
        }
        return values.compactMapValues { $0 as? String }
    }

    /// An `.xcconfig`: `NAME = value` (an optional `;`), `//` comments, `#include "other.xcconfig"` (and
    /// `#include?`, which may be missing) relative to the file, `$(inherited)` as the value so far. Conditional
    /// settings (`NAME[sdk=iphoneos*] = ...`) are skipped: which condition holds is the build's to decide.
    static func xcconfig(_ text: String, file: String, depth: Int) throws(EntitlementsError) -> [String: String] {
        var settings: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(raw)
            if let comment = line.range(of: "//") { line = line[line.startIndex..<comment.lowerBound] }
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            if trimmed.hasPrefix("#include") {
                let optional = trimmed.hasPrefix("#include?")
                let included = try include(trimmed, optional: optional, from: file, line: index + 1, depth: depth)
                settings.merge(included, uniquingKeysWith: { $1 })
                continue
            }
            let statement = trimmed.hasSuffix(";") ? String(trimmed.dropLast()) : trimmed
            if let bracket = statement.firstIndex(of: "["), let equals = statement.firstIndex(of: "="), bracket < equals,
                isName(statement[statement.startIndex..<bracket])
            {
                continue
            }
            guard let (name, value) = setting(statement) else {
                throw EntitlementsError(file, "line \(index + 1): expected NAME = value, found \"\(trimmed.prefix(60))\"")
            }
            let inherited = settings[name] ?? ""
            settings[name] = value.replacingOccurrences(of: "$(inherited)", with: inherited)
                .replacingOccurrences(of: "${inherited}", with: inherited)
                .trimmingCharacters(in: .whitespaces)
        }
        return settings
    }

    /// The settings of the file an `#include "path"` line names, relative to the including file.
    static func include(
        _ line: String, optional: Bool, from file: String, line number: Int, depth: Int
    ) throws(EntitlementsError) -> [String: String] {
        let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
        guard parts.count >= 3, !parts[1].isEmpty else {
            throw EntitlementsError(file, "line \(number): expected #include \"file.xcconfig\"")
        }
        guard depth < maximumIncludeDepth else {
            throw EntitlementsError(file, "line \(number): #include nested more than \(maximumIncludeDepth) deep")
        }
        let name = String(parts[1])
        let path =
            name.hasPrefix("/") ? name : ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent(name)
        if optional, !FileManager.default.fileExists(atPath: path) { return [:] }
        return try read(file: path, depth: depth + 1)
    }

    /// `NAME = value` (spaces optional), or nil when the text before `=` is not a setting name.
    static func setting(_ line: String) -> (String, String)? {
        guard let equals = line.firstIndex(of: "=") else { return nil }
        let name = line[line.startIndex..<equals].trimmingCharacters(in: .whitespaces)
        guard isName(Substring(name)) else { return nil }
        return (name, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
    }

    static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}

extension XcodeVariables {
    /// The variables the command-line verbs build from `--team`, `--bundle-id`, `--setting` and `--settings`.
    /// - Throws: naming the settings file and line, or the `--setting` word, that does not read.
    public init(team: String?, bundleID: String?, assignments: [String], files: [String]) throws(EntitlementsError) {
        self.init(team: team, bundleID: bundleID, settings: try BuildSettings.merged(assignments: assignments, files: files))
    }
}
