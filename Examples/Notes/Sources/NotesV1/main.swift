// Notes 1.0: the API token in UserDefaults, the sharing key in the settings plist, the sync password
// in an internet password. Its own launch migrates nothing; seed and verify come from build.json.
import AppHarness

struct NotesV1: AppBuild {
    let buildID = "notes1"
    func launch(_ launch: HarnessLaunch) async {}
}

await Harness.main(NotesV1())
