// Mail 4.0: what 3.0 does, then the IMAP password renamed into an internet password for its server,
// port and protocol (read old, add new, read it back, delete old).
import MailAutomation

await Harness.main(mailBuild("mail4", MailLaunch(release: 4)))
