// Mail 4.2: Mail 4.0's rename of the IMAP password into an internet password, both synchronizable,
// keeping the generic one that 3.2 on the user's other devices still reads.
import MailAutomation

await Harness.main(mailBuild("mail42", MailLaunch(release: 4, syncsIMAP: true, keepsSyncedOriginal: true)))
