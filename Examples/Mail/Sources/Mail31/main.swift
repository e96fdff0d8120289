// Mail 3.1: Mail 3.0 with a notification service extension that reads the IMAP password (a generic
// password in the keychain group it shares with the app) to fetch a message's preview. This
// executable is also the extension's (build.json's `extensions`): launched as it, it reads only.
import MailAutomation

await Harness.main(mailBuild("mail31", MailLaunch(release: 3)))
