// Mail 3.0 as a team that keeps users signed in across a reinstall ships it: no reinstall sweep, and
// its build.json declares the policy ("reinstall": "keeps-credentials") with the team's reason.
import MailAutomation

await Harness.main(mailBuild("mail3-keeps-signed-in", MailLaunch(release: 3, sweepsOnReinstall: false)))
