import Foundation
import Testing
import TestSupport
import UpgradeRunner

/// The command line in-process, over the repository's builds/ and the built products, in a
/// temporary folder of its own (devices, output).
final class TransferCLI: @unchecked Sendable {
    struct Result {
        var code: Int32
        var output: String
        var error: String
    }

    static let buildsFolder = BuiltProducts.repositoryBuilds

    let directory: TemporaryDirectory
    /// The builds folder the commands read (the repository's unless a test points it elsewhere).
    var buildsFolder = TransferCLI.buildsFolder
    var devices: String { directory.file("devices") }
    var out: String { directory.file("out") }

    init(_ label: String) throws { directory = try TemporaryDirectory(label) }

    /// Runs `words` as `upgrade-runner` would.
    @discardableResult
    func run(_ words: [String]) -> Result {
        let captured = Tool.capture(
            words,
            environment: [
                "UPGRADE_RUNNER_DEVICES": devices, "UPGRADE_RUNNER_BUILDS": buildsFolder,
                "UPGRADE_RUNNER_PRODUCTS": BuiltProducts.directory.path, "HOME": directory.path,
            ])
        return Result(code: captured.code, output: captured.output, error: captured.error)
    }

    /// gate.json of the last gate or run, as JSON.
    func gateDocument() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: out + "/gate.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The verdict of each (path, scenario, condition) in gate.json: `v3-to-v4-transfer/upgrade/reads-old-data`.
    func cellVerdicts() throws -> [String: String] {
        var verdicts: [String: String] = [:]
        for path in try gateDocument()["paths"] as? [[String: Any]] ?? [] {
            for scenario in path["scenarios"] as? [[String: Any]] ?? [] {
                for condition in scenario["conditions"] as? [[String: Any]] ?? [] {
                    let key = "\(path["path"] ?? "")/\(scenario["scenario"] ?? "")/\(condition["condition"] ?? "")"
                    verdicts[key] = condition["verdict"] as? String
                }
            }
        }
        return verdicts
    }

    /// The keychain items of `device` as (access group, account), from `keychain DEVICE dump --json`.
    func items(_ device: String) throws -> [(group: String, account: String)] {
        let dump = run(["keychain", device, "dump", "--json"])
        #expect(dump.code == 0, "\(dump.error)")
        let items = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [[String: Any]])
        return items.map { ($0["accessGroup"] as? String ?? "", $0["account"] as? String ?? "") }
    }

    /// The app's last status file on `device`.
    func lastStatus(_ device: String) throws -> [String: Any] {
        let root = devices
        let finder = FileManager.default.enumerator(atPath: root)
        while let relative = finder?.nextObject() as? String {
            if relative.hasSuffix("tmp/upgrade-runner-status.json") {
                let data = try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }
        Issue.record("no status file under \(root)")
        return [:]
    }
}

extension [String: Any] {
    /// The result words of a status file's items, by item name.
    var results: [String: String] {
        [String: String](
            (self["items"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0["result"] as? String ?? "") },
            uniquingKeysWith: { _, last in last })
    }
}
