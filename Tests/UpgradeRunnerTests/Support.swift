import Foundation
import TestSupport
import UpgradeRunner

/// Runs the command line in-process with literal arguments and captures what it prints.
final class CLI: @unchecked Sendable {
    struct Result {
        var code: Int32
        var output: String
        var error: String
    }

    let directory: TemporaryDirectory
    var root: String { directory.file("devices") }
    var builds: String { directory.file("builds") }

    init(_ label: String = "cli") throws {
        directory = try TemporaryDirectory(label)
    }

    /// Runs `words` with the devices root, builds and products of this test in the environment.
    func run(_ words: [String], environment extra: [String: String] = [:]) -> Result {
        var environment = [
            "UPGRADE_RUNNER_DEVICES": root, "UPGRADE_RUNNER_BUILDS": builds,
            "UPGRADE_RUNNER_PRODUCTS": BuiltProducts.directory.path, "HOME": directory.path,
        ]
        environment.merge(extra) { $1 }
        let captured = Tool.capture(words, environment: environment)
        return Result(code: captured.code, output: captured.output, error: captured.error)
    }

    /// Creates a booted device with TinyApp build `v1` installed; returns its UDID.
    func bootedDevice(udid: String = "TEST-DEVICE-1") throws -> String {
        try BuildFixture.write(in: builds, id: "v1")
        for words in [
            ["device", "create", "Phone", "--udid", udid, "--clock", "2024-05-01T00:00:00Z"],
            ["install", udid, "v1"], ["device", "boot", udid],
        ] {
            let result = run(words)
            guard result.code == 0 else { throw CLIError(words: words, result: result) }
        }
        return udid
    }

    struct CLIError: Error, CustomStringConvertible {
        var words: [String]
        var result: Result
        var description: String { "\(words.joined(separator: " ")) -> \(result.code): \(result.error)" }
    }
}
