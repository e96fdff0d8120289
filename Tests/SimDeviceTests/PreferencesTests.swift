import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

@Suite struct PreferencesTests {
    private func make(
        _ directory: TemporaryDirectory, arguments: [String] = [], state: MutableLockState,
        seam: Seam = Seam()
    ) -> Preferences {
        Preferences(
            domain: "com.example.tiny", plistPath: directory.file("Library/Preferences/com.example.tiny.plist"),
            argumentDomain: Preferences.argumentDomain(arguments), lockState: state.source, seam: seam)
    }

    @Test("values round-trip through a real binary property list")
    func roundTrip() throws {
        let directory = try TemporaryDirectory("prefs")
        let preferences = make(directory, state: MutableLockState(.unlocked))
        #expect(preferences.set("abc", forKey: "authToken"))
        #expect(preferences.set(3, forKey: "count"))
        #expect(preferences.set(Data([1, 2]), forKey: "blob"))
        #expect(preferences.string(forKey: "authToken") == "abc")
        #expect(preferences.integer(forKey: "count") == 3)
        #expect(preferences.data(forKey: "blob") == Data([1, 2]))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: preferences.plistPath))
        #expect(bytes.starts(with: Data("bplist00".utf8)))
        let stored = try PropertyListSerialization.propertyList(from: bytes, format: nil) as? [String: Any]
        #expect(stored?["authToken"] as? String == "abc")
        #expect(preferences.removeObject(forKey: "authToken"))
        #expect(preferences.object(forKey: "authToken") == nil)
        #expect(!preferences.set(NSObject(), forKey: "bad"), "a value that is not a property list is refused")
    }

    @Test("before first unlock the preferences read as empty and writes fail")
    func beforeFirstUnlock() throws {
        let directory = try TemporaryDirectory("prefs")
        let state = MutableLockState(.unlocked)
        let recording = RecordingSeam()
        let preferences = make(directory, state: state, seam: recording.seam)
        #expect(preferences.set("abc", forKey: "authToken"))
        state.set(.beforeFirstUnlock)
        #expect(preferences.string(forKey: "authToken") == nil)
        #expect(preferences.persistentDomain().isEmpty)
        #expect(!preferences.set("new", forKey: "authToken"))
        #expect(recording.entries.last?.status == EPERM)
        #expect(recording.entries.map(\.operation) == [.preferencesWrite, .preferencesWrite])
        state.set(.locked)
        #expect(preferences.string(forKey: "authToken") == "abc", "after first unlock, a locked device reads them")
    }

    @Test("-Key value launch arguments shadow stored values; writes still go to the stored domain")
    func argumentDomainShadows() throws {
        let directory = try TemporaryDirectory("prefs")
        let state = MutableLockState(.unlocked)
        make(directory, state: state).set("stored", forKey: "authToken")
        let preferences = make(directory, arguments: ["-authToken", "fromArgs", "-UITestSeedLegacyKeychain"], state: state)
        #expect(preferences.string(forKey: "authToken") == "fromArgs")
        #expect(preferences.set("written", forKey: "authToken"))
        #expect(preferences.string(forKey: "authToken") == "fromArgs")
        #expect(preferences.persistentDomain()["authToken"] as? String == "written")
        state.set(.beforeFirstUnlock)
        #expect(preferences.string(forKey: "authToken") == "fromArgs", "the argument domain is in the process, not on disk")
    }

    @Test(
        "the argument domain is parsed as Foundation parses it",
        arguments: [
            (["-a", "1", "-b", "x"], ["a": "1", "b": "x"]),
            (["-flag", "-a", "1"], ["a": "1"]),
            (["plain", "-a"], [:]),
            (["-a", "1", "stray", "-b", "2"], ["a": "1", "b": "2"]),
            (["-", "x"], [:]),
        ] as [([String], [String: String])])
    func argumentParsing(arguments: [String], expected: [String: String]) {
        let domain = Preferences.argumentDomain(arguments)
        #expect(domain.mapValues { "\($0)" } == expected)
    }

    @Test("a property-list value in the arguments is parsed; typed getters read strings as UserDefaults does")
    func typedArguments() throws {
        let directory = try TemporaryDirectory("prefs")
        let preferences = make(
            directory, arguments: ["-list", "(a, b)", "-on", "YES", "-n", "42", "-f", "3.9", "-huge", "1e300"],
            state: MutableLockState(.unlocked))
        #expect(preferences.integer(forKey: "f") == 3)
        #expect(preferences.integer(forKey: "huge") == 0)
        #expect(preferences.stringArray(forKey: "list") == ["a", "b"])
        #expect(preferences.bool(forKey: "on"))
        #expect(preferences.integer(forKey: "n") == 42)
        #expect(!preferences.bool(forKey: "missing"))
    }

    @Test("writes pass through the seam: counted, logged, and faulted as the plan says")
    func seam() throws {
        let directory = try TemporaryDirectory("prefs")
        let recording = RecordingSeam(
            plan: FaultPlan(faults: [
                Fault(.preferencesWrite, call: 1, .status(EIO)), Fault(.preferencesWrite, call: 2, .dropWrite),
            ]))
        let preferences = make(directory, state: MutableLockState(.unlocked), seam: recording.seam)
        #expect(!preferences.set("a", forKey: "k"))
        #expect(preferences.set("b", forKey: "k"), "a dropped write reports success")
        #expect(preferences.object(forKey: "k") == nil)
        #expect(preferences.set("c", forKey: "k"))
        #expect(preferences.string(forKey: "k") == "c")
        #expect(recording.entries.map(\.mutation) == [nil, nil, 1])
        #expect(recording.entries.allSatisfy { $0.subject == SeamSubject(store: "preferences", name: "k") })
    }

    @Test("a power loss takes every preference set of the launch, and logs the keys it took (never values)")
    func powerLoss() throws {
        let directory = try TemporaryDirectory("prefs")
        let state = MutableLockState(.unlocked)
        let before = make(directory, state: state)
        #expect(before.set("legacy", forKey: "authToken"))
        let original = try Data(contentsOf: URL(fileURLWithPath: before.plistPath))

        let recording = RecordingSeam(plan: .powerLoss(afterMutation: 3))
        let launch = make(directory, state: state, seam: recording.seam)
        #expect(launch.set(true, forKey: "installed"))
        #expect(launch.removeObject(forKey: "authToken"))
        #expect(recording.crashedAt == nil)
        #expect(launch.set(2, forKey: "schema"))
        #expect(recording.crashedAt == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: launch.plistPath)) == original, "the plist as it was before the launch")
        let lost = recording.entries.filter { $0.operation == .powerLoss }
        #expect(lost.map(\.subject) == ["authToken", "installed", "schema"].map { SeamSubject(store: "preferences", name: $0) })
        #expect(lost.allSatisfy { $0.mutation == nil })
    }

    @Test("a power loss removes a preferences plist the launch created; a crash keeps every set")
    func powerLossOfNewDomain() throws {
        let directory = try TemporaryDirectory("prefs")
        let state = MutableLockState(.unlocked)
        let powerLoss = make(directory, state: state, seam: RecordingSeam(plan: .powerLoss(afterMutation: 1)).seam)
        #expect(powerLoss.set(true, forKey: "installed"))
        #expect(!FileManager.default.fileExists(atPath: powerLoss.plistPath))

        let crash = make(directory, state: state, seam: RecordingSeam(plan: FaultPlan(crashAfterMutation: 1)).seam)
        #expect(crash.set(true, forKey: "installed"))
        #expect(crash.bool(forKey: "installed"), "a crash is not a power loss: cfprefsd has the set")
    }
}
