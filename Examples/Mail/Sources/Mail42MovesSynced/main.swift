// Known-bad: Mail 4.2 whose rename deletes the synchronizable generic password: the delete travels to
// the user's other device, where 3.2 reads that item and shows the user signed out.
import MailAutomation

await Harness.main(mailBuild("mail42-moves-synced", MailLaunch(release: 4, syncsIMAP: true)))
