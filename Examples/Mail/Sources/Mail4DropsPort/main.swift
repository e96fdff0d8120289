// Known-bad: Mail 4.0 whose rename re-adds the IMAP password without its port and protocol; the
// inbox's login query names them and never finds it.
import MailAutomation

await Harness.main(mailBuild("mail4-drops-port", MailLaunch(release: 4, renameDropsPort: true)))
