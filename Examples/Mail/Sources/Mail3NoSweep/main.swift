// Known-bad: Mail 3.0 without the reinstall sweep Mail 2.0 has, declaring no policy for it: after
// the user deletes the app and installs it again, the old install's passwords sign them back in.
import MailAutomation

await Harness.main(mailBuild("mail3-no-sweep", MailLaunch(release: 3, sweepsOnReinstall: false)))
