// Known-bad: Mail 3.0 opening the inbox with what the keychain holds before the launch migrates
// (the migration runs after the first screen): the first launch after an upgrade from 1.0 shows
// the user signed out.
import MailAutomation

await Harness.main(mailBuild("mail3-reads-first", MailLaunch(release: 3, readBeforeMigrating: true)))
