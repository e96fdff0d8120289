import Foundation
import Testing
import TestSupport

/// scripts/import-app.sh on Linux (no PlistBuddy, plutil or codesign: the project's reader) against
/// the Ledger.app fixture, then the imported build in `entitlements diff` and the gate.
@Suite struct ImportAppTests {
    static let packageRoot = Script.repositoryRoot
    static let fixtureApp = packageRoot + "/Tests/EntitlementsTests/Fixtures/Ledger.app"

    /// Runs the script with a PATH that holds no Apple tool.
    static func importApp(_ arguments: [String], builds: String) throws -> ProcessRun {
        try Script.run(
            "import-app.sh", arguments + ["--builds", builds],
            environment: [
                "PATH": "/usr/bin:/bin", "UPGRADE_RUNNER": BuiltProducts.executable("upgrade-runner"),
                "TMPDIR": NSTemporaryDirectory(),
            ])
    }

    @Test("imports the fixture app: build.json from Info.plist, entitlements from the Mach-O section; diff and gate use it")
    func importFixture() throws {
        let cli = try TransferCLI("import-app")
        let builds = cli.directory.file("builds")
        let result = try Self.importApp([Self.fixtureApp, "ledger-real", "--stand-in", "LedgerV3"], builds: builds)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == builds + "/ledger-real\n")
        #expect(result.stderr.contains("CFBundleVersion is missing"))
        let manifest =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: builds + "/ledger-real/build.json")))
            as? [String: Any]
        #expect(manifest?["bundleID"] as? String == "com.example.ledger")
        #expect(manifest?["marketingVersion"] as? String == "3.0")
        #expect(manifest?["buildNumber"] as? String == "3.0")
        #expect(manifest?["executable"] as? String == "LedgerV3")
        #expect(manifest?["entitlements"] as? String == "entitlements.plist")

        cli.buildsFolder = builds
        let same = cli.run(["entitlements", "diff", "ledger-real", Self.fixtureApp])
        #expect(same.code == 0, "\(same.output)\(same.error)")
        #expect(same.output.contains("keys\n  (no changes)"))

        // The gate's entitlements scenario with the imported build as the new one: the bridge release's
        // items sit in group.com.example.ledger, which the real app lists, so the team change is survivable.
        try FileManager.default.copyItem(atPath: TransferCLI.buildsFolder + "/v3-bridge", toPath: builds + "/v3-bridge")
        try FileManager.default.copyItem(atPath: TransferCLI.buildsFolder + "/v3", toPath: builds + "/v3")
        let bridged = cli.run([
            "run", "--from", "v3-bridge", "--to", "ledger-real", "--scenario", "entitlements",
            "--case-id", "ia", "--out", cli.out,
        ])
        #expect(bridged.code == 0, "\(bridged.error)")
        let stranded = cli.run([
            "run", "--from", "v3", "--to", "ledger-real", "--scenario", "entitlements",
            "--case-id", "ia", "--out", cli.out, "--force",
        ])
        #expect(stranded.code == 1)
        #expect(try cli.cellVerdicts()["v3-to-ledger-real/entitlements/entitlements-compatible"] == "FAIL")
    }

    @Test("without a stand-in the manifest names the app's own executable: diff works, the gate refuses it in one line")
    func noStandIn() throws {
        let cli = try TransferCLI("import-app-plain")
        let builds = cli.directory.file("builds")
        #expect(try Self.importApp([Self.fixtureApp, "ledger-real"], builds: builds).status == 0)
        cli.buildsFolder = builds
        #expect(cli.run(["entitlements", "diff", "ledger-real", Self.fixtureApp]).code == 0)
        let refused = cli.run(["run", "--to", "ledger-real", "--scenario", "fresh-install", "--out", cli.out])
        #expect(refused.code == 2)
        #expect(refused.error.contains("executable \"Ledger\" not found in products folder"))
    }

    @Test("a universal armv7+arm64 app (a device build from before Xcode 9) imports with the same entitlements")
    func universalApp() throws {
        let cli = try TransferCLI("import-app-universal")
        let builds = cli.directory.file("builds")
        let universal = Self.packageRoot + "/Tests/EntitlementsTests/Fixtures/LedgerUniversal.app"
        let result = try Self.importApp([universal, "ledger-universal"], builds: builds)
        #expect(result.status == 0, "\(result.stderr)")
        cli.buildsFolder = builds
        let same = cli.run(["entitlements", "diff", "ledger-universal", Self.fixtureApp])
        #expect(same.code == 0, "\(same.output)\(same.error)")
        #expect(same.output.contains("keys\n  (no changes)"))
    }

    @Test(
        "bad usage and input: one line, exit 2, nothing written",
        arguments: [
            ["/nonexistent.app", "x"], ["APP", "a/b"], ["APP", "x", "--frobnicate"], ["APP"],
        ])
    func badInput(words: [String]) throws {
        let cli = try TransferCLI("import-app-bad")
        let builds = cli.directory.file("builds")
        let result = try Self.importApp(words.map { $0 == "APP" ? Self.fixtureApp : $0 }, builds: builds)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: builds))
    }

    @Test("an existing build folder is kept unless --force")
    func existing() throws {
        let cli = try TransferCLI("import-app-force")
        let builds = cli.directory.file("builds")
        #expect(try Self.importApp([Self.fixtureApp, "ledger-real"], builds: builds).status == 0)
        let again = try Self.importApp([Self.fixtureApp, "ledger-real"], builds: builds)
        #expect(again.status == 2)
        #expect(again.stderr.contains("already exists"))
        #expect(try Self.importApp([Self.fixtureApp, "ledger-real", "--force"], builds: builds).status == 0)
    }
}
