// Mail 1.0: the account in an archive, UserDefaults and the settings plist; its launch migrates nothing.
import MailAutomation

await Harness.main(mailBuild("mail1", MailLaunch(release: 1)))
