// Notes 2.0: moves the token and the sharing key into the keychain (NotesKit's migration).
import AppHarness
import NotesAutomation

await Harness.main(NotesBuild(buildID: "notes2"))
