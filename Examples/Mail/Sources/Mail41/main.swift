// Mail 4.1: Mail 4.0 with the notification service extension, which reads the internet password and,
// until the app's first launch after the update has renamed it, the generic password 3.x kept.
import MailAutomation

await Harness.main(mailBuild("mail41", MailLaunch(release: 4)))
