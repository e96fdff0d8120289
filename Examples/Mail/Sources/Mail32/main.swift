// Mail 3.2: Mail 3.0 whose IMAP password travels to the user's other devices through iCloud Keychain
// (a synchronizable generic password); a fresh install's sweep spares synchronizable items.
import MailAutomation

await Harness.main(mailBuild("mail32", MailLaunch(release: 3, syncsIMAP: true)))
