// The app builds' main.swift files import this module alone.
@_exported import AppHarness
@_exported import MailKit
import Foundation  // EIO

/// What the harness runs: the app's own functions. The 1.0 seed is 1.0's account screen Save; a
/// later release seeds where its build.json says (AppHarness's default) and leaves the install
/// marker and schema its own launch leaves. A launch is the app's launch sequence, its steps
/// reported in the status file. The startup read is the inbox's account check, which is also the verify (AppHarness's default);
/// cleanup comes from build.json (the default).
public struct MailBuild: AppBuild {
    public let buildID: String
    public let app: MailLaunch

    public init(_ buildID: String, _ app: MailLaunch) {
        self.buildID = buildID
        self.app = app
    }

    public func seed(_ launch: HarnessLaunch) async {
        guard app.release == 1 else {
            DeclaredStores(launch).seed()
            return app.markInstalled()  // a seed stands for a device this release already ran on
        }
        let secrets = launch.secrets
        let status: Int32 = (try? LegacyStores.saveAccount(
            username: "me@mail.example", password: secrets["imapPassword"], smtpPassword: secrets["smtpPassword"])) == nil ? EIO : 0
        launch.record("imapPassword", .file, "saveAccount", status, status == 0 ? .written : .failed)
        launch.record("smtpPassword", .file, "saveAccount", status, status == 0 ? .written : .failed)
    }

    public func seedMalformed(_ launch: HarnessLaunch) async {
        let stores = DeclaredStores(launch)
        stores.seed(malformed: Set(stores.declaration.secretLabels.filter(launch.malforms)))
        if app.release > 1 { app.markInstalled() }
    }

    public func launch(_ launch: HarnessLaunch) async {
        let environment = launch.environment
        let available = await environment.protectedData.waitUntilAvailable(timeout: environment.protectedDataTimeout)
        let (state, steps, firstScreen) = app.launch(protectedDataAvailable: available)
        for step in steps {
            let result: ItemResult = step.outcome == .moved ? .written : (step.outcome == .kept ? .kept : .failed)
            launch.record(step.label, step.store == "keychain" ? .keychain : .file, step.operation, step.status, result)
        }
        launch.setMigration(MigrationOutcome(state: MigrationState(rawValue: state.rawValue) ?? .failed))
        if let firstScreen { launch.reportStartup(firstScreen.map(Self.read)) }
    }

    /// The app's startup read: the inbox's account check (also the verify).
    public func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? { app.accountCheck().map(Self.read) }

    static func read(_ read: MailLaunch.Read) -> SecretRead {
        SecretRead(
            read.label, from: read.store == "keychain" ? .keychain : .file, operation: read.operation, status: read.status,
            value: read.password.map { Data($0.utf8) })
    }
}
