import AppHarness
import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport

/// An app extension's executable is an app build: the same hooks, status file and startup read, under the
/// extension's identity (issue 39).
@Suite("AppHarness in an app extension")
struct ExtensionHarnessTests {
    /// A notification service extension in a few lines: it reads the session the app keeps, as its first screen.
    struct Notify: AppBuild {
        let buildID = "probe"
        func seed(_ launch: HarnessLaunch) async {}
        func seedMalformed(_ launch: HarnessLaunch) async {}
        func verify(_ launch: HarnessLaunch) async {}
        func cleanup(_ launch: HarnessLaunch) async {}
        func launch(_ launch: HarnessLaunch) async {
            launch.record("kind", .file, launch.appExtension?.kind ?? "app", 0, .found)
        }
        func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
            let (status, data) = KeychainProbe.read(service: "svc", account: "session")
            return [SecretRead("session", from: .keychain, operation: "SecItemCopyMatching", status: status, value: data)]
        }
    }

    @Test("the extension's launch knows its name and kind, writes its status file and its startup read")
    func extensionLaunch() async throws {
        let app = try InProcessApp()
        let base = app.platform([])
        var context = base.context
        context.appExtension = LaunchContext.AppExtension(
            name: "notify", kind: "notification-service", hostBundleID: "com.example.harness")
        let outcome = await Harness.run(Notify(), platform: Platform(context: context, seam: Seam()))
        #expect(outcome.exitCode == 0)
        #expect(outcome.status.items.map(\.operation) == ["notification-service"])
        #expect(outcome.status.startup?.map(\.name) == ["session"])
        #expect(FileManager.default.fileExists(atPath: app.statusPath))
        // The app's own launch has no extension.
        let plain = await Harness.run(Notify(), platform: app.platform([]))
        #expect(plain.status.items.map(\.operation) == ["app"])
    }
}
