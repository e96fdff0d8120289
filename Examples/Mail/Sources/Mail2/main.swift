// Mail 2.0: moves the IMAP password (archive) and the SMTP password (settings plist) into the keychain.
import MailAutomation

await Harness.main(mailBuild("mail2", MailLaunch(release: 2)))
