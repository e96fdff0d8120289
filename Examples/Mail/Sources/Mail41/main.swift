// Mail 4.1: Mail 4.0 with the notification service extension, which reads the generic password 3.x
// kept (until the app's first launch after the update has renamed it), then the internet password.
import MailAutomation

await Harness.main(mailBuild("mail41", MailLaunch(release: 4)))
