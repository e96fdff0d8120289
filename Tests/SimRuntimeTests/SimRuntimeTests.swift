import Foundation
import SimRuntime
import TestSupport
import Testing

@Suite("SimRuntime: runtime versions, identities, lock state, plans and launch contexts")
struct SimRuntimeTests {
    @Test(
        "runtime versions parse in simctl's spellings and order numerically",
        arguments: [
            ("iOS 17.5", 17, 5), ("17.5", 17, 5), ("iOS 12", 12, 0), ("com.apple.CoreSimulator.SimRuntime.iOS-13-4", 13, 4),
        ])
    func runtimeParsing(_ text: String, _ major: Int, _ minor: Int) {
        #expect(RuntimeVersion(text) == RuntimeVersion(major: major, minor: minor))
    }

    @Test("nonsense runtimes are refused", arguments: ["", "iOS", "iOS x.1", "1.0", "iOS 17.5.1.2"])
    func runtimeRejects(_ text: String) {
        #expect(RuntimeVersion(text) == nil)
    }

    @Test("runtime order is numeric, not textual")
    func runtimeOrder() {
        #expect(RuntimeVersion("iOS 9.3")! < RuntimeVersion("iOS 12.4")!)
        #expect(RuntimeVersion("iOS 17.10")! > RuntimeVersion("iOS 17.5")!)
    }

    @Test("a lock-state file is read on every check; a missing or garbled file reads as locked")
    func lockStateFile() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("lockstate")
        let source = LockStateSource.file(path)
        #expect(source.current == .locked)
        try "unlocked\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(source.current == .unlocked)
        try "beforeFirstUnlock".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(source.current == .beforeFirstUnlock)
        try "open sesame".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(source.current == .locked)
    }

    @Test(
        "a lock-state file reads as Foundation reads it, white space around it or not",
        arguments: [
            "unlocked", " unlocked\n", "\t\r\nlocked\u{0B}\u{0C} ", "\u{00A0}unlocked\u{2028}", "beforeFirstUnlock\n\n", "",
            "un locked", "UNLOCKED", String(repeating: " ", count: 200) + "unlocked", "unlocked\u{0}",
        ])
    func lockStateSpelling(_ text: String) throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("lockstate")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let foundation =
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap {
                LockState(rawValue: $0.trimmingCharacters(in: .whitespacesAndNewlines))
            } ?? .locked
        #expect(LockStateSource.file(path).current == foundation)
    }

    @Test("a launch context survives its trip through the environment")
    func launchContextRoundTrip() throws {
        let context = LaunchContext(
            udid: "UDID", deviceDirectory: "/d", bundleID: "com.example.ledger", identity: .testHost,
            runtime: RuntimeVersion("iOS 16.4")!, keychainPath: "/d/k.db", dataContainer: "/d/data",
            appGroupContainers: ["group.x": "/d/g"], lockStatePath: "/d/lock", clock: Date(timeIntervalSince1970: 1_700_000_000),
            arguments: ["-UITestSeedLegacyKeychain"],
            faultPlan: FaultPlan(
                faults: [Fault(.secItemUpdate, call: 3, .status(-25308)), Fault(.fileRemove, call: 1, .dropWrite)],
                crashAfterMutation: 4),
            mutationLogPath: "/d/log")
        let text = try context.encoded()
        #expect(try LaunchContext.decode(text) == context)
        #expect(text.contains("\"runtime\":\"iOS 16.4\""))
        #expect(try context.encoded() == text)  // deterministic
    }

    @Test("a fault plan without a power loss keeps its bytes (no powerLoss key); one with it round-trips")
    func powerLossCoding() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plain = String(decoding: try encoder.encode(FaultPlan(crashAfterMutation: 3)), as: UTF8.self)
        #expect(plain == #"{"crashAfterMutation":3,"faults":[]}"#)
        let lost = FaultPlan.powerLoss(afterMutation: 3)
        let text = try encoder.encode(lost)
        #expect(String(decoding: text, as: UTF8.self) == #"{"crashAfterMutation":3,"faults":[],"powerLoss":true}"#)
        #expect(try JSONDecoder().decode(FaultPlan.self, from: text) == lost)
        #expect(try JSONDecoder().decode(FaultPlan.self, from: Data(plain.utf8)).powerLoss == false)
    }

    @Test("a mutation log reads back every whole line, and skips a torn last line")
    func mutationLogReadsBack() throws {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("mutations.jsonl")
        let file = try #require(MutationLogFile(path: path))
        let seam = Seam(sink: { file.append($0) })
        _ = seam.perform(.secItemAdd, SeamSubject(store: "genp", service: "s", account: "a")) { 0 }
        _ = seam.perform(.secItemCopyMatching, SeamSubject(store: "genp", service: "s", account: "a")) { -25300 }
        _ = seam.perform(.secItemDelete, SeamSubject(store: "genp", service: "s", account: "a")) { 0 }
        let whole = MutationLogFile.read(path)
        #expect(whole.map(\.operation) == [.secItemAdd, .secItemCopyMatching, .secItemDelete])
        #expect(whole.map(\.status) == [0, -25300, 0] && whole.map(\.mutation) == [1, nil, 2])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"sequence\":4,\"oper".utf8))
        try handle.close()
        #expect(MutationLogFile.read(path) == whole)
        #expect(MutationLogFile.read(tmp.file("none.jsonl")).isEmpty)
    }
}
