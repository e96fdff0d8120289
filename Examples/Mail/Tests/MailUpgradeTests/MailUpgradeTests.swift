import Testing
import UpgradeRunner

/// Mail's upgrades, checked inside its own `swift test` (the executables `swift build --build-tests`
/// builds beside this test's, the builds in `builds/`): the gate's cells and checkers, findings as values.
@Suite struct MailUpgradeTests {
    @Test("1.0 to 2.0 keeps both passwords through the upgrade, a relaunch and a crash after every store call")
    func passwordsSurvive() throws {
        let result = try UpgradeCheck(old: "mail1", new: "mail2", scenarios: [.upgrade, .relaunch, .crashPoints]).run()
        #expect(result.passed, "\(result)")
    }

    @Test("removing the archive before the keychain write is confirmed loses the IMAP password at a crash")
    func removeFirstIsCaught() throws {
        let result = try UpgradeCheck(old: "mail1", new: "mail2-remove-first", scenarios: [.crashPoints]).run()
        #expect(result.verdict == .fail)
        #expect(result.failures(.crashSafe).contains { $0.message.contains("imapPassword") }, "\(result)")
    }

    @Test("4.1's notification service extension, run after the update before the app, still reads the IMAP password")
    func extensionBeforeTheApp() throws {
        let good = try UpgradeCheck(old: "mail31", new: "mail41", scenarios: [.extensionFirst]).run()
        #expect(good.passed, "\(good)")
        let bad = try UpgradeCheck(old: "mail31", new: "mail41-preview-new-only", scenarios: [.extensionFirst]).run()
        #expect(bad.verdict == .fail)
        #expect(bad.failures(.staysSignedIn).contains { $0.message.contains("extension notify") }, "\(bad)")
    }
    @Test("4.2 on one device keeps the synchronizable IMAP password that 3.2 reads on the user's other device")
    func secondDevice() throws {
        let good = try UpgradeCheck(old: "mail32", new: "mail42", scenarios: [.secondDevice]).run()
        #expect(good.passed, "\(good)")
        let bad = try UpgradeCheck(old: "mail32", new: "mail42-moves-synced", scenarios: [.secondDevice]).run()
        #expect(bad.verdict == .fail)
        #expect(bad.failures(.staysSignedIn).contains { $0.message.contains("on device B") }, "\(bad)")
    }
}
