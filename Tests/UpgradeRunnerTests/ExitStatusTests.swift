import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import TestSupport
import Testing
@testable import UpgradeRunner

/// One function, ``ExitStatus/report(_:)``, turns every error into its one line and exit code: 2 for bad usage or
/// input, 3 for a run the machine could not complete.
@Suite struct ExitStatusTests {
    @Test(
        "a device error about what the user named is bad input, exit 2",
        arguments: [
            DeviceError.unknownDevice("Phone", root: "/devices"),
            .ambiguousDevice("Phone", udids: ["A", "B"]),
            .malformedFile("/builds/v1/build.json", reason: "field \"id\" is empty"),
            .missingFile("/builds/v1/build.json", what: "build manifest"),
            .notWritable("/devices", reason: "read-only"),
            .inUse(udid: "A", pid: 42),
            .notInstalled(bundleID: "com.example.app", udid: "A"),
            .shutDown(udid: "A"),
            .unknownBuild("v9", buildsFolder: "/builds"),
            .missingExecutable("App", productsFolder: "/products", build: "v1"),
        ])
    func badInput(error: DeviceError) {
        #expect(ExitStatus.report(error) == (error.description, 2))
    }

    @Test(
        "a device error the machine caused (a spawn that failed, a file operation, an interruption) is exit 3",
        arguments: [
            DeviceError.spawnFailed("/products/App", errno: ENOEXEC),
            .fileSystem("/devices/A/device.json", reason: "cannot be written (no space left on device)"),
            .interrupted,
        ])
    func environment(error: DeviceError) {
        #expect(ExitStatus.report(error) == (error.description, 3))
    }

    @Test(
        "a build whose executable cannot be started ends the command with exit 3, naming it; install refuses one that is not an executable for this machine, exit 2"
    )
    func spawnThroughTheCommandLine() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let products = cli.directory.file("products")
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        let junk = products + "/Junk"
        try Data("not a program".utf8).write(to: URL(fileURLWithPath: junk))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: junk)
        try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200", executable: "Junk")
        let environment = ["UPGRADE_RUNNER_PRODUCTS": products]
        let refused = cli.run(["install", udid, "v2"], environment: environment)
        #expect(
            refused.code == 2 && refused.error.contains("build v2's executable \(junk) is not an executable this machine runs"),
            "\(refused.error)")
        // A real executable installed, then made a file the kernel cannot run on the device: posix_spawn fails with ENOEXEC.
        try FileManager.default.removeItem(atPath: junk)
        try FileManager.default.copyItem(atPath: BuiltProducts.directory.path + "/TinyApp", toPath: junk)
        let install = cli.run(["install", udid, "v2"], environment: environment)
        #expect(install.code == 0, "\(install.error)")
        let installed = try #require(
            FileManager.default.enumerator(atPath: cli.root + "/" + udid)?.compactMap { $0 as? String }.first {
                $0.hasSuffix("/Junk")
            })
        let onDevice = cli.root + "/" + udid + "/" + installed
        try FileManager.default.removeItem(atPath: onDevice)
        try Data("not a program".utf8).write(to: URL(fileURLWithPath: onDevice))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: onDevice)
        let launch = cli.run(["launch", udid, "com.example.tiny"], environment: environment)
        #expect(launch.code == 3, "\(launch.error)")
        #expect(launch.error.hasPrefix("error: ") && launch.error.contains("Junk: cannot be started ("), "\(launch.error)")
        #expect(launch.error.split(separator: "\n").count == 1)
    }

    @Test("the entitlements commands' bad input: the same one line as before, exit 2; their verdicts keep 0 and 1")
    func entitlementsCommands() throws {
        let cli = try CLI()
        try BuildFixture.write(in: cli.builds, id: "v1")
        try BuildFixture.write(in: cli.builds, id: "v3", buildNumber: "300", team: "NEWTEAM999")
        let v9 = cli.builds + "/v9"
        try FileManager.default.createDirectory(atPath: v9, withIntermediateDirectories: true)
        try Data(#"{"id": "v9", "entitlements": "x.entitlements"}"#.utf8).write(to: URL(fileURLWithPath: v9 + "/build.json"))
        let array = cli.directory.file("array.plist")
        try PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0)
            .write(to: URL(fileURLWithPath: array))
        let notApp = cli.directory.file("notapp")
        try FileManager.default.createDirectory(atPath: notApp, withIntermediateDirectories: true)

        let cases: [([String], String)] = [
            (
                ["entitlements", "show", "nope"],
                "error: nope: no such file, folder or build id (build ids are looked up in \(cli.builds))\n"
            ),
            (["entitlements", "diff", "v1", "v9"], "error: \(v9)/build.json: field \"bundleID\" is missing\n"),
            (["entitlements", "show", array], "error: \(array): property list is an array, not a dictionary\n"),
            (["entitlements", "diff", array, "v1"], "error: \(array): property list is an array, not a dictionary\n"),
            (
                ["entitlements", "show", notApp],
                "error: \(notApp): folder is neither an app bundle (no Info.plist) nor a build (no build.json)\n"
            ),
        ]
        for (words, line) in cases {
            let result = cli.run(words)
            #expect(result.code == 2, "\(words)")
            #expect(result.error == line)
            #expect(result.output == "")
        }
        #expect(cli.run(["entitlements", "show", notApp, "--info"]).error.hasPrefix("error: \(notApp): no Info.plist"))
        #expect(cli.run(["entitlements", "diff", "v1", "v1"]).code == 0)
        #expect(cli.run(["entitlements", "diff", "v1", "v3"]).code == 1)
        #expect(cli.run(["entitlements", "show", "v1"]).code == 0)
    }
}
