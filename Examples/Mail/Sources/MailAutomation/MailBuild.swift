// The app builds' main.swift files import this module alone.
@_exported import AppHarness
@_exported import MailKit

// The app's own reports, as the harness takes them (their properties have the harness's names).
extension MailLaunch.Step: SecretReport {}
extension MailLaunch.Read: SecretReadReport { public var text: String? { password } }

/// What the harness runs: the app's own functions (AppHarness's `AppFunctions`). The 1.0 seed is
/// 1.0's account screen Save; a later release seeds where its build.json says (the default) and
/// leaves the install marker and schema its own launch leaves. A launch is the app's launch
/// sequence, its steps reported in the status file. The startup read is the inbox's account check,
/// which is also the verify; the notification service extension's (3.1 on; the same executable,
/// launched as the extension) is its preview's read. Cleanup comes from build.json (the default).
public func mailBuild(_ buildID: String, _ app: MailLaunch) -> AppFunctions {
    AppFunctions(
        buildID,
        seed: AppFunctions.seed(through: "saveAccount", when: app.release == 1) {
            try LegacyStores.saveAccount(
                username: "me@mail.example", password: $0["imapPassword"], smtpPassword: $0["smtpPassword"])
        },
        afterSeed: { _ in if app.release > 1 { app.markInstalled() } },
        startupRead: { _ in app.accountCheck() }, extensionRead: { _ in app.previewRead() }
    ) { launch in
        let (state, steps, firstScreen) = app.launch(protectedDataAvailable: await launch.waitForProtectedData())
        launch.setMigration(state: state, steps: steps, by: \.outcome, [.moved: .written, .kept: .kept])
        if let firstScreen { launch.reportStartup(firstScreen) }
    }
}
