import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import TestSupport
import Testing
@testable import UpgradeRunner

/// `scan-secrets DIR`: the run's case secrets, each leak named by file, index, label and encoding, never the value.
@Suite struct ScanSecretsCommandTests {
    @Test("a leak is printed as file, secret number, label and encoding, never the value; exit 1; a clean folder exits 0")
    func leaks() throws {
        let cli = try CLI()
        let folder = cli.directory.file("run")
        try RunFolders.write(SampleGate.inputs(), at: folder)
        let clean = cli.run(["scan-secrets", folder], environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(clean.code == 0, "\(clean.error)")
        #expect(clean.output.hasPrefix("clean: no secret of case case-7 in "))

        let secrets = GatePipeline.sampleSecrets(caseID: "case-7")
        let secret = secrets[1]
        let file = "paths/v1-to-v2/upgrade/logs/01-v1-seed.log"
        try FileManager.default.createDirectory(
            atPath: folder + "/paths/v1-to-v2/upgrade/logs", withIntermediateDirectories: true)
        try Data("token=\(secret.value.base64EncodedString())\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + file))
        let leaked = cli.run(["scan-secrets", folder], environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(leaked.code == 1)
        // base64url reads the same as base64 when the text has no + or /, so both may be named.
        let lines = leaked.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(file): holds secret #2 (\(secret.label)) as base64"), "\(leaked.output)")
        #expect(lines.allSatisfy { $0.hasPrefix("\(file): holds secret #2 (\(secret.label)) as base64") })
        let value = String(decoding: secret.value, as: UTF8.self)
        #expect(!leaked.output.contains(value) && !leaked.error.contains(value))
        #expect(!leaked.output.contains(secret.value.base64EncodedString()))

        let json = cli.run(
            ["scan-secrets", folder, "--json"], environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(json.code == 1 && json.output.contains("\"secretIndex\" : 2"))
    }

    @Test("without run.json the case comes from --case-id; with neither, exit 2 naming the folder")
    func caseID() throws {
        let cli = try CLI()
        let folder = cli.directory.file("loose")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let secret = GatePipeline.sampleSecrets(caseID: "loose-1")[0]
        try secret.value.write(to: URL(fileURLWithPath: folder + "/dump.bin"))
        cli.expectRefused(["scan-secrets", folder], naming: "\(folder)\" holds no run.json; pass --case-id")
        let result = cli.run(
            ["scan-secrets", folder, "--case-id", "loose-1"], environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(result.code == 1)
        #expect(result.output == "dump.bin: holds secret #1 (\(secret.label)) as raw\n")
    }

    @Test("bad input: a missing folder, a malformed run.json, a --case-id other than run.json's, a bad --case-id")
    func badInput() throws {
        let cli = try CLI()
        cli.expectRefused(["scan-secrets", cli.directory.file("nope")], naming: cli.directory.file("nope"))
        let folder = cli.directory.file("run")
        try RunFolders.write(SampleGate.inputs(), at: folder)
        cli.expectRefused(
            ["scan-secrets", folder, "--case-id", "other"],
            naming: "--case-id: \"other\" differs from case \"case-7\" of \(folder)/run.json")
        try "{".write(toFile: folder + "/run.json", atomically: true, encoding: .utf8)
        cli.expectRefused(["scan-secrets", folder], naming: "\(folder)/run.json: is not valid JSON")
        let loose = cli.directory.file("loose")
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true)
        cli.expectRefused(["scan-secrets", loose, "--case-id", "a b"], naming: "--case-id: \"a b\" must be ASCII letters")
    }

    @Test("a builds folder that declares no secret is bad input, not a clean scan of nothing")
    func noSecretDeclared() throws {
        let cli = try CLI()
        let loose = cli.directory.file("loose")
        let empty = cli.directory.file("no-builds")
        try FileManager.default.createDirectory(atPath: loose, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = cli.run(["scan-secrets", loose, "--case-id", "x1"], environment: ["UPGRADE_RUNNER_BUILDS": empty])
        #expect(result.code == 2)
        #expect(result.output.isEmpty)
        #expect(result.error.contains("declares no secret"), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
    }
}
