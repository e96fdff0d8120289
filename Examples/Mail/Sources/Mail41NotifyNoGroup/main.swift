// Known-bad: Mail 4.1 as mail41, but its build.json gives the extension entitlements without the
// keychain access group it shares with the app (the code is mail41's; the mistake is the signing).
import MailAutomation

await Harness.main(mailBuild("mail41-notify-no-group", MailLaunch(release: 4)))
