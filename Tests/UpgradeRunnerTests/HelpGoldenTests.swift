import Foundation
@testable import GateExecution
@testable import GateModel
import TestSupport
import Testing
@testable import UpgradeRunner

/// The help texts are pinned by golden files (re-record with RECORD_SNAPSHOTS=1).
@Suite struct HelpGoldenTests {
    static let folder = Golden.folder(of: #filePath) + "/Golden"

    static let topics: [[String]] = [[], ["device"], ["entitlements"]] + CommandTable.specs.map(\.path)

    @Test("--help on every verb matches its golden file and exits 0", arguments: topics)
    func help(topic: [String]) throws {
        let cli = try CLI("help")
        let result = cli.run(topic + ["--help"])
        #expect(result.code == 0)
        #expect(result.error.isEmpty)
        let name = topic.isEmpty ? "upgrade-runner" : topic.joined(separator: "-")
        let difference = Golden.compare(result.output, toFileAt: Self.folder + "/help-\(name).txt")
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("every verb's help opens with at most five lines before its arguments and options")
    func shortDiscussion() {
        for spec in CommandTable.specs {
            let lines = spec.discussion.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(
                lines.count <= 5, "\(spec.path.joined(separator: " ")): \(lines.count) lines; the rest belongs in docs/cli.md")
        }
    }

    @Test("help COMMAND is the same as COMMAND --help")
    func helpVerb() throws {
        let cli = try CLI("help")
        #expect(cli.run(["help", "device", "create"]).output == cli.run(["device", "create", "--help"]).output)
        #expect(cli.run(["help"]).output == cli.run(["--help"]).output)
    }

    @Test("no command prints the overview on standard error and exits 2")
    func noCommand() throws {
        let result = try CLI("help").run([])
        #expect(result.code == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("USAGE: upgrade-runner COMMAND"))
    }
}
