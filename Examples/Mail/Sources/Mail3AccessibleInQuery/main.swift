// Known-bad: Mail 3.0 whose inbox reads the passwords with kSecAttrAccessibleWhenUnlocked in its
// query: every password saved AfterFirstUnlock reads as not found, and the user is signed out.
// The generic verify (by class, service and account) would find them; the app's own read does not.
import MailAutomation

await Harness.main(mailBuild("mail3-accessible-in-query", MailLaunch(release: 3, accessibleInQuery: true)))
