// The app builds' main.swift files import this module alone.
@_exported import AppHarness
@_exported import MailKit

// The app's own reports, as the harness takes them (their properties have the harness's names).
extension MailLaunch.Step: SecretReport {}
extension MailLaunch.Read: SecretReport {}

/// What the harness runs: the app's own functions. The 1.0 seed is 1.0's account screen Save; a
/// later release seeds where its build.json says (AppHarness's default) and leaves the install
/// marker and schema its own launch leaves. A launch is the app's launch sequence, its steps
/// reported in the status file. The startup read is the inbox's account check, which is also the
/// verify (AppHarness's default); cleanup comes from build.json (the default).
public struct MailBuild: AppBuild {
    public let buildID: String
    public let app: MailLaunch

    public init(_ buildID: String, _ app: MailLaunch) {
        self.buildID = buildID
        self.app = app
    }

    public func seed(_ launch: HarnessLaunch) async {
        guard app.release == 1 else { return DeclaredStores(launch).seed() }
        launch.seed(through: "saveAccount") { secrets in
            try LegacyStores.saveAccount(
                username: "me@mail.example", password: secrets["imapPassword"], smtpPassword: secrets["smtpPassword"])
        }
    }

    /// A device a later release ran on has its install marker and schema.
    public func afterSeed(_ launch: HarnessLaunch) async { if app.release > 1 { app.markInstalled() } }

    public func launch(_ launch: HarnessLaunch) async {
        let (state, steps, firstScreen) = app.launch(protectedDataAvailable: await launch.waitForProtectedData())
        for step in steps { launch.record(step, step.outcome == .moved ? .written : step.outcome == .kept ? .kept : .failed) }
        launch.setMigration(MigrationOutcome(state: MigrationState(rawValue: state.rawValue) ?? .failed))
        if let firstScreen { launch.reportStartup(firstScreen.map { SecretRead($0, text: $0.password) }) }
    }

    /// The app's startup read: the inbox's account check (also the verify).
    public func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
        app.accountCheck().map { SecretRead($0, text: $0.password) }
    }
}
