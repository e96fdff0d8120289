// A known-bad Notes 2.0: the token's preference is removed before its keychain write.
import AppHarness
import NotesAutomation

await Harness.main(NotesBuild(buildID: "notes2-delete-first", removeBeforeWrite: true))
