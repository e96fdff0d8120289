// Mail 3.0: what 2.0 does, then the settings plist in its schema 2, written atomically.
import MailAutomation

await Harness.main(mailBuild("mail3", MailLaunch(release: 3)))
