import Foundation
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// App- and file-supplied text (a label, a status value, an entitlement string) never reaches a
/// terminal or summary.md raw (#37): control characters are escaped, line breaks kept.
@Suite struct HostileTextTests {
    static let hostile = "label\u{1b}]0;pwned\u{7}\u{1b}[31mred\u{202e}\r"

    @Test("lines keep line breaks and tabs and escape every other control or format character")
    func lines() {
        #expect(QuotedValue.lines("a\tb\nc") == "a\tb\nc")
        #expect(QuotedValue.lines(Self.hostile) == "label\\u{1b}]0;pwned\\u{7}\\u{1b}[31mred\\u{202e}\\r")
    }

    @Test("the console escapes what it prints; progress keeps its own live-line reset")
    func console() {
        final class Captured: @unchecked Sendable { var out = ""; var err = "" }
        let captured = Captured()
        let console = Console(output: { captured.out += $0 }, error: { captured.err += $0 })
        console.output("| " + Self.hostile + " |")
        console.error(GateProgress.liveReset + "cell " + Self.hostile, terminator: "")
        #expect(!captured.out.unicodeScalars.contains("\u{1b}"), "\(captured.out.debugDescription)")
        #expect(captured.out.hasSuffix("\\r |\n"))
        #expect(captured.err.hasPrefix(GateProgress.liveReset))
        #expect(!captured.err.dropFirst(GateProgress.liveReset.count).unicodeScalars.contains("\u{1b}"))
    }

    @Test("summary.md escapes a finding's ESC; gate.json keeps the text, JSON-escaped")
    func summary() throws {
        let directory = try TemporaryDirectory("hostile")
        let cells = try SampleGate.inputs().plan().expectedCells(in: nil)
        var findings = SampleGate.findings(for: cells)
        findings.append(
            GateFinding(
                .readsOldData, path: .id("v1-to-v2"), scenario: .upgrade, item: Self.hostile, verdict: .fail,
                detail: "status value \(Self.hostile)"))
        let report = GateEngine.evaluate(expected: cells, findings: findings)
        try GateArtifacts.write(report: report, inputs: SampleGate.inputs(), to: directory.path)
        let summary = try String(contentsOfFile: directory.file("summary.md"), encoding: .utf8)
        #expect(summary.contains("label\\u{1b}]0;pwned"), "the finding is shown, escaped")
        #expect(!summary.unicodeScalars.contains("\u{1b}") && !summary.unicodeScalars.contains("\u{202e}"))
        let gate = try String(contentsOfFile: directory.file("gate.json"), encoding: .utf8)
        #expect(!gate.unicodeScalars.contains("\u{1b}"))
    }

    @Test("entitlements diff prints an app group holding ESC escaped")
    func entitlementsDiff() throws {
        let cli = try CLI()
        func plist(_ name: String, groups: [String]) throws -> String {
            let path = cli.directory.file(name)
            let data = try PropertyListSerialization.data(
                fromPropertyList: [
                    "com.apple.security.application-groups": groups, "keychain-access-groups": ["TEAM.com.example"],
                ],
                format: .xml, options: 0)
            try data.write(to: URL(fileURLWithPath: path))
            return path
        }
        let old = try plist("old.entitlements", groups: ["group.com.example"])
        let new = try plist("new.entitlements", groups: ["group.\u{1b}[2J\u{1b}[31mevil"])
        let result = cli.run(["entitlements", "diff", old, new])
        #expect(result.output.contains("evil") || result.error.contains("evil"), "\(result)")
        #expect(!result.output.unicodeScalars.contains("\u{1b}"), "\(result.output.debugDescription)")
        #expect(!result.error.unicodeScalars.contains("\u{1b}"), "\(result.error.debugDescription)")
    }
}
