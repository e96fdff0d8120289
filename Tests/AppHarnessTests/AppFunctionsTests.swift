import Foundation
import SimDevice
import SimRuntime
import Testing
@testable import AppHarness

/// The glue a team no longer writes (#41 item 4): an app build made of the app's own functions
/// (``AppFunctions``), its steps recorded by an outcome mapping, its state as the migration's, and
/// its read reports as startup reads (``SecretReadReport``).
@Suite("An app build from the app's own functions")
struct AppFunctionsTests {
    /// A step and a read as an app reports them, in its own types.
    struct Step: SecretReport {
        enum Outcome: String { case moved, kept, failed, skipped }
        var label: String, store = "keychain", operation = "SecItemAdd", status: Int32 = 0, outcome: Outcome
    }
    struct Read: SecretReadReport {
        var label: String, store = "keychain", operation = "SecItemCopyMatching", status: Int32 = 0, password: String?
        var text: String? { password }
    }
    enum State: String { case migrated, upToDate, halfway }

    static let declaration = BuildDeclaration(secrets: [
        DeclaredItem(label: "imapPassword", store: .preference(key: "mail.imap", suite: nil))
    ])

    private func launch(_ app: InProcessApp, _ mode: LaunchMode, extension name: String? = nil) -> HarnessLaunch {
        let arguments = (mode.argument.map { [$0] } ?? []) + [LaunchMode.caseIDArgument, "c1"]
        var environment = AppEnvironment(platform: app.platform(arguments))
        environment.appExtension = name.map {
            LaunchContext.AppExtension(name: $0, kind: "notification-service", hostBundleID: "com.example.mail")
        }
        return HarnessLaunch(
            buildID: "functions", mode: mode, caseID: "c1", environment: environment, declaration: Self.declaration)
    }

    @Test("steps are recorded by the outcome mapping (an unmapped outcome is failed); the state maps by its raw value")
    func stepsAndState() throws {
        let launch = launch(try InProcessApp(), .launch)
        let steps = [
            Step(label: "imapPassword", outcome: .moved), Step(label: "smtpPassword", outcome: .kept),
            Step(label: "token", status: -25299, outcome: .skipped),
        ]
        launch.setMigration(state: State.migrated, steps: steps, by: \.outcome, [.moved: .written, .kept: .kept])
        let status = launch.currentStatus
        #expect(status.items.map(\.result) == [.written, .kept, .failed])
        #expect(status.items.map(\.name) == ["imapPassword", "smtpPassword", "token"])
        #expect(status.migration?.state == .migrated)
        launch.setMigration(state: State.upToDate)
        #expect(launch.currentStatus.migration?.state == .upToDate)
        launch.setMigration(state: State.halfway)
        #expect(launch.currentStatus.migration?.state == .failed, "a state that is no contract word is failed")
    }

    @Test("an app's read reports are startup reads: the case's value found, another a mismatch, never a value")
    func readReports() throws {
        let launch = launch(try InProcessApp(), .launch)
        let value = launch.secrets["imapPassword"]
        #expect(SecretRead(Read(label: "imapPassword", password: value)).value == Data(value.utf8))
        launch.reportStartup([Read(label: "imapPassword", password: value)])
        #expect(launch.currentStatus.startup?.map(\.result) == [.found])
        let other = self.launch(try InProcessApp(), .launch)
        other.reportStartup([Read(label: "imapPassword", status: -25300, password: nil)])
        #expect(other.currentStatus.startup?.map(\.result) == [.missing])
    }

    @Test("the app's launch and startup read in its launches; in an extension's, no launch and the extension's read")
    func appAndExtension() async throws {
        let app = try InProcessApp()
        let build = AppFunctions(
            "functions", startupRead: { _ in [Read(label: "imapPassword", status: -25300, password: nil)] },
            extensionRead: { launch in [Read(label: "imapPassword", password: launch.secrets["imapPassword"])] }
        ) { launch in launch.setMigration(state: State.migrated) }
        let plain = launch(app, .launch)
        await build.run(plain)
        #expect(plain.currentStatus.migration?.state == .migrated)
        #expect(plain.currentStatus.startup?.map(\.result) == [.missing])
        let notify = launch(app, .launch, extension: "notify")
        await build.run(notify)
        #expect(notify.currentStatus.migration == nil, "an extension never runs the app's launch")
        #expect(notify.currentStatus.startup?.map(\.result) == [.found])
    }

    @Test("seed(through:when:) is the app's save when it holds, else the declared stores' seed")
    func seedThroughWhen() async throws {
        #expect(AppFunctions.seed(through: "saveAccount", when: false) { _ in } == nil)
        let app = try InProcessApp()
        let own = launch(app, .seed)
        await AppFunctions("functions", seed: AppFunctions.seed(through: "saveAccount") { _ in }) { _ in }.run(own)
        #expect(own.currentStatus.items.map(\.operation) == ["saveAccount"])
        let declared = launch(app, .seed)
        await AppFunctions("functions") { _ in }.run(declared)
        #expect(declared.currentStatus.items.map(\.operation) == ["set"])
        #expect(declared.currentStatus.items.map(\.result) == [.written])
    }
}
