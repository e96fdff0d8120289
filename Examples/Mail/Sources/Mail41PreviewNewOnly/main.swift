// Known-bad: Mail 4.1 whose extension reads the IMAP password only as the internet password: a push
// that arrives after the update, before the user opens the app, finds it nowhere.
import MailAutomation

await Harness.main(mailBuild("mail41-preview-new-only", MailLaunch(release: 4, previewReadsOnlyNewPlace: true)))
