import Foundation
import TestSupport
import Testing
@testable import UpgradeRunner

/// `upgrade-runner launch --extension NAME` (issue 39): an app's extension launched by hand.
@Suite("launch --extension")
struct ExtensionLaunchCommandTests {
    @Test("the extension runs under its own bundle id; an unknown name is bad input listing the app's extensions")
    func launchExtension() throws {
        let cli = try CLI()
        let udid = try cli.bootedDevice()
        let folder = try BuildFixture.write(in: cli.builds, id: "v2", buildNumber: "200")
        try BuildFixture.addExtension(to: folder, name: "notify")
        #expect(cli.run(["install", udid, "v2"]).code == 0)
        let launched = cli.run(["launch", udid, "com.example.tiny", "--extension", "notify", "--", "-TinyMode", "seed"])
        #expect(launched.code == 0, "\(launched.error)")
        #expect(launched.output.hasPrefix("com.example.tiny.notify (v2) pid "))
        #expect(launched.output.contains("/logs/com.example.tiny.notify.log"))
        let dump = cli.run(["keychain", udid, "dump"])
        #expect(dump.output.contains("TEAM123456.com.example.tiny.notify"))
        let unknown = cli.run(["launch", udid, "com.example.tiny", "--extension", "widget"])
        #expect(unknown.code == 2)
        #expect(unknown.error.contains("--extension"))
        #expect(unknown.error.contains("is not an extension of com.example.tiny (notify)"))
        #expect(unknown.error.split(separator: "\n").count == 1)
    }
}
