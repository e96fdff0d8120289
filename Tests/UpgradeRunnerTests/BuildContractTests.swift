import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// The contract between the runner and any app's builds, from the command line: what a build
/// declares in build.json, the order builds are given in, and what makes an executable an app build.
@Suite("Builds under the contract")
struct BuildContractTests {
    /// A builds folder with a build `id` whose manifest carries `keeps` (JSON text).
    private func build(_ cli: CLI, id: String = "v1", keeps: String, executable: String = "TinyApp") throws -> String {
        let folder = try BuildFixture.write(in: cli.builds, id: id, executable: executable)
        let path = folder + "/build.json"
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = String(text.dropLast(2)) + ",\n  \"keeps\" : " + keeps + "\n}\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "a declaration that cannot be used is one line naming the build, the file and the field, exit 2",
        arguments: [
            (
                #"{"secrets": [{"label": "apiToken", "store": {"kind": "cloud", "key": "x"}}]}"#,
                #"field "keeps.secrets[0].store.kind": "cloud" is not a store kind (preference, plist, json, archive, keychain, appGroupFile)"#
            ),
            (
                #"{"secrets": [{"label": "token", "store": {"kind": "preference", "key": "t"}, "holdsBytes": true}]}"#,
                #"field "keeps.secrets[0].holdsBytes" is true, but a preferences store holds text, not bytes"#
            ),
            (
                #"{"secrets": [{"label": "token", "store": {"kind": "json", "file": "s.json", "keyPath": "auth..token"}}]}"#,
                #"field "keeps.secrets[0].store.keyPath" "auth..token" has an empty key"#
            ),
            (
                #"{"secrets": [{"label": "token", "store": {"kind": "json", "group": "group.not.mine", "file": "s.json", "keyPath": "t"}}]}"#,
                #"build v1: field "keeps.secrets[0].store.group" "group.not.mine" is not one of the build's app groups"#
            ),
            (
                #"{"secrets": [{"label": "pin", "store": {"kind": "plist", "group": "group.not.mine", "file": "s.plist", "keyPath": "lock.pin"}}]}"#,
                #"build v1: field "keeps.secrets[0].store.group" "group.not.mine" is not one of the build's app groups"#
            ),
            (
                #"{"secrets": [{"label": "apiToken", "store": {"kind": "preference", "key": "a"}}, {"label": "apiToken", "store": {"kind": "preference", "key": "b"}}]}"#,
                #"build v1: field "keeps.secrets[1].label" "apiToken" is declared twice"#
            ),
            (
                #"{"secrets": [{"label": "apiToken", "store": {"kind": "keychain", "service": "s", "account": "a", "accessGroup": "OTHERTEAM.com.example.other"}}]}"#,
                #"build v1: field "keeps.secrets[0].store.accessGroup" "OTHERTEAM.com.example.other" is not one of the build's access groups"#
            ),
            (
                #"{"secrets": [{"label": "token", "store": {"kind": "appGroupFile", "group": "group.not.mine", "file": "t"}}]}"#,
                #"build v1: field "keeps.secrets[0].store.group" "group.not.mine" is not one of the build's app groups"#
            ),
            (
                #"{"secrets": [{"label": "token", "store": {"kind": "keychain", "class": "genp", "service": "s", "account": "a", "port": 443}}]}"#,
                #"field "keeps.secrets[0].store.port" belongs to an internet password (class inet), not genp"#
            ),
            (
                #"{"secrets": [{"label": "token", "store": {"kind": "keychain", "class": "inet", "server": "s", "protocol": "https"}}]}"#,
                #"field "keeps.secrets[0].store.protocol" "https" is not a four-character code (such as htps, dflt)"#
            ),
        ])
    func badDeclaration(keeps: String, naming: String) throws {
        let cli = try CLI()
        let manifest = try build(cli, keeps: keeps)
        let result = cli.expectRefused(["gate", "--builds", "v1", "--out", cli.directory.file("out")], naming: naming)
        #expect(result.error.hasPrefix("error: \(manifest): "), "\(result.error)")
    }

    @Test("a declared extension that cannot be used is one line naming the build, the file and the field, exit 2")
    func badExtension() throws {
        let cli = try CLI()
        let folder = try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.addExtension(to: folder, name: "notify", fields: ["kind": "today"])
        let result = cli.expectRefused(
            ["gate", "--builds", "v1", "--out", cli.directory.file("out")],
            naming:
                #"build v1: field "extensions[0].kind" "today" is not an extension kind (notification-service, widget, share, background-task)"#
        )
        #expect(result.error.hasPrefix("error: \(folder)/build.json: "), "\(result.error)")
    }

    @Test("builds given newest first are bad input naming both builds; nothing is written")
    func buildOrder() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1", buildNumber: "100")
        try BuildFixture.write(in: cli.builds, id: "v3", buildNumber: "300")
        cli.expectRefused(
            ["gate", "--builds", "v3,v1", "--out", cli.directory.file("out")],
            naming: "--builds: \"v3,v1\" lists v3 (build 300) before v1 (build 100): builds go oldest first, by build number")
        try BuildFixture.write(in: cli.builds, id: "v1b", buildNumber: "100")
        cli.expectRefused(["gate", "--builds", "v1,v1b"], naming: "lists v1 (build 100) before v1b (build 100)")
    }

    @Test("an executable that writes no status file is not an app build: refused before anything is written")
    func notAnAppBuild() throws {
        let cli = try CLI()
        let manifest = try build(cli, keeps: #"{"secrets": []}"#, executable: "bare-exit")
        cli.expectRefused(
            ["gate", "--builds", "v1", "--out", cli.directory.file("out")],
            naming: "\(manifest): build v1 (\(BuiltProducts.executable("bare-exit"))) left no status file "
                + "tmp/upgrade-runner-status.json (its launch exited with status 0): it is not an app build")
    }

    @Test("a status file of another contract version is refused naming the build and the field")
    func otherContractVersion() throws {
        let cli = try CLI()
        // A shell script that writes a status file of contract version 0.
        let script = cli.directory.file("old-harness")
        let status =
            #"{"build":"old","caseID":"preflight","errors":[],"formatVersion":0,"items":[],"mode":"verify","runtime":"iOS 17.5"}"#
        try """
        #!/bin/sh
        mkdir -p "$HOME/tmp" && printf '%s\\n' '\(status)' > "$HOME/tmp/upgrade-runner-status.json"
        """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let products = cli.directory.file("products")
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: script, toPath: products + "/OldHarness")
        try build(cli, keeps: #"{"secrets": []}"#, executable: "OldHarness")
        // A script is no app build, so the gate refuses it before launching it (BadInputSuiteTests);
        // the preflight itself is asked here, with the executable-format check left out.
        let build = try BuildCatalog(folder: cli.builds, productsFolder: products).build("v1")
        #expect {
            try BuildPreflight.check([build], runtime: .current, timeout: 30, format: BuildPreflightTests.scriptsAllowed)
        } throws: { error in
            "\(error)".contains(
                "its status file tmp/upgrade-runner-status.json: field \"formatVersion\" is 0, but this runner speaks contract version 1"
            )
        }
    }
}
