// Known-bad: Mail 2.0 removing the account archive before its keychain write is confirmed.
import MailAutomation

await Harness.main(mailBuild("mail2-remove-first", MailLaunch(release: 2, removeArchiveFirst: true)))
