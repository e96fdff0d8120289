// Known-bad: Mail 3.0 rewriting the settings plist first, while it holds the SMTP password, and in place
// (Data.write without .atomic).
import MailAutomation

await Harness.main(mailBuild("mail3-settings-in-place", MailLaunch(release: 3, rewriteSettingsInPlace: true)))
