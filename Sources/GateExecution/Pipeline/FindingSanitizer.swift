import Foundation
import GateModel

/// The last pass over a run's findings before they are judged and written: findings quote what
/// apps reported (item names, results) and errors (paths), and the verdict files are written after
/// the leak scan, so the text is cleaned here.
///
/// - A finding whose message or item holds a seeded secret in any encoding the leak scan knows has
///   that text replaced by a note naming the secret's label: the verdict files, the terminal and a
///   CI step summary never show it.
/// - The run's temporary devices folder and UUIDs (device UDIDs, container folders) become
///   placeholders, so that the same inputs give the same bytes even when a cell aborts.
struct FindingSanitizer {
    let secrets: [Secret]
    let workRoot: String
    /// The secrets' patterns, built once for every text (nil when a secret is too short to scan
    /// for, which the run's leak scan reports).
    private let patterns: SecretPatterns?

    init(secrets: [Secret], workRoot: String) {
        self.init(secrets: secrets, patterns: try? SecretPatterns(secrets: secrets), workRoot: workRoot)
    }

    /// With `patterns` already built from `secrets` (the run's leak scan uses the same ones).
    init(secrets: [Secret], patterns: SecretPatterns?, workRoot: String) {
        self.secrets = secrets
        self.workRoot = workRoot
        self.patterns = patterns
    }

    func clean(_ findings: [GateFinding]) -> [GateFinding] {
        findings.map { finding in
            var cleaned = finding
            cleaned.message = clean(finding.message)
            cleaned.item = finding.item.map(clean)
            if let key = finding.key { cleaned.key?.subject = clean(key.subject) }
            return cleaned
        }
    }

    func clean(_ text: String) -> String {
        if let leaks = patterns?.matches(in: Data(text.utf8)), !leaks.isEmpty {
            let labels = Set(leaks.map { secrets[$0.secret].label }).sorted().joined(separator: ", ")
            return "<redacted: this text held a seeded secret (\(labels)); see the cell's artifacts>"
        }
        var result = workRoot.isEmpty ? text : text.replacingOccurrences(of: workRoot, with: "<devices>")
        result = Self.uuid.stringByReplacingMatches(
            in: result, range: NSRange(result.startIndex..., in: result), withTemplate: "<uuid>")
        return result
    }

    private static let uuid = try! NSRegularExpression(
        pattern: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
}
