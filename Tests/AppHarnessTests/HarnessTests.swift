import AppHarness
import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport

/// A data container, keychain file and lock-state file in a temporary folder, and a platform on
/// them in this process.
final class InProcessApp: @unchecked Sendable {
    let directory: TemporaryDirectory
    let lockStatePath: String
    /// The app groups the app holds, each with a container at `groups/<group>`.
    let groups: [String]

    init(lockState: LockState = .unlocked, groups: [String] = []) throws {
        directory = try TemporaryDirectory("harness")
        lockStatePath = directory.file("lockstate")
        self.groups = groups
        let folders = ["data/tmp", "data/Documents", "data/Library/Preferences", "data/Library/Application Support"]
        for folder in folders + groups.map({ "groups/" + $0 }) {
            try FileManager.default.createDirectory(atPath: directory.file(folder), withIntermediateDirectories: true)
        }
        setLockState(lockState)
    }

    func setLockState(_ state: LockState) {
        _ = FileManager.default.createFile(atPath: lockStatePath, contents: Data(state.rawValue.utf8))
    }

    func platform(_ arguments: [String], seam: Seam = Seam()) -> Platform {
        let identity = AppIdentity(
            bundleID: "com.example.harness", applicationIdentifier: "HARNESS123.com.example.harness",
            keychainAccessGroups: ["HARNESS123.com.example.harness"])
        let context = LaunchContext(
            udid: "TEST", deviceDirectory: directory.path, bundleID: identity.bundleID, identity: identity,
            runtime: .current, keychainPath: directory.file("keychain.db"), dataContainer: directory.file("data"),
            appGroupContainers: Dictionary(uniqueKeysWithValues: groups.map { ($0, directory.file("groups/" + $0)) }),
            lockStatePath: lockStatePath, clock: Date(timeIntervalSince1970: 1_714_521_600),
            arguments: arguments, faultPlan: .none, mutationLogPath: nil)
        return Platform(context: context, seam: seam)
    }

    var statusPath: String { directory.file("data/" + LaunchStatus.relativePath) }
}

/// A build that records which hook ran and writes one keychain item in seed mode.
struct ProbeBuild: AppBuild {
    let buildID = "probe"
    func seed(_ launch: HarnessLaunch) async {
        let (operation, status) = KeychainProbe.addOrUpdate(
            Data(launch.secrets["deviceKey"].utf8), service: "svc.\(launch.caseID)",
            account: "deviceKey.\(launch.caseID)")
        launch.record("deviceKey", .keychain, operation, status, status == 0 ? .written : .failed)
    }
    func seedMalformed(_ launch: HarnessLaunch) async { launch.record("hook", .file, "seedMalformed", 0, .written) }
    func verify(_ launch: HarnessLaunch) async {
        let (status, data) = KeychainProbe.read(service: "svc.\(launch.caseID)", account: "deviceKey.\(launch.caseID)")
        launch.recordRead(
            "deviceKey", .keychain, "SecItemCopyMatching", status, actual: data,
            expected: Data(launch.secrets["deviceKey"].utf8))
    }
    func cleanup(_ launch: HarnessLaunch) async {
        let status = KeychainProbe.deleteExact(service: "svc.\(launch.caseID)", account: "deviceKey.\(launch.caseID)")
        launch.record("deviceKey", .keychain, "SecItemDelete", status, status == 0 ? .removed : .missing)
    }
    func launch(_ launch: HarnessLaunch) async {
        launch.setSweep(.markerPresent)
        launch.record("hook", .file, "launch", 0, .written)
    }
}

@Suite struct HarnessTests {
    @Test(
        "each automation argument selects its hook, and the status names the mode and the case",
        arguments: LaunchMode.allCases)
    func modeSelection(_ mode: LaunchMode) async throws {
        let app = try InProcessApp()
        let arguments = (mode.argument.map { [$0] } ?? []) + ["-UITestCaseID", "case42"]
        let outcome = await Harness.run(ProbeBuild(), platform: app.platform(arguments))
        #expect(outcome.exitCode == 0)
        #expect(outcome.status.mode == mode && outcome.status.caseID == "case42" && outcome.status.build == "probe")
        let written = try LaunchStatus.decode(Data(contentsOf: URL(fileURLWithPath: app.statusPath)))
        #expect(written == outcome.status)
    }

    @Test("an automation mode without -UITestCaseID runs nothing, exits 2 and says why in the status")
    func missingCaseID() async throws {
        let app = try InProcessApp()
        let outcome = await Harness.run(ProbeBuild(), platform: app.platform(["-UITestSeedLegacyKeychain"]))
        #expect(outcome.exitCode == 2)
        #expect(outcome.status.items.isEmpty)
        #expect(outcome.status.errors.map(\.name) == ["caseID"])
        #expect(FileManager.default.fileExists(atPath: app.statusPath))
    }

    @Test("a plain launch needs no case id")
    func plainLaunch() async throws {
        let app = try InProcessApp()
        let outcome = await Harness.run(ProbeBuild(), platform: app.platform([]))
        #expect(outcome.exitCode == 0 && outcome.status.caseID == "" && outcome.status.sweep == .markerPresent)
    }

    @Test("seed, verify and cleanup through the platform's keychain; the same launch gives the same bytes")
    func roundTripAndDeterminism() async throws {
        let app = try InProcessApp()
        let seed = await Harness.run(ProbeBuild(), platform: app.platform(["-UITestSeedLegacyKeychain", "-UITestCaseID", "c1"]))
        #expect(seed.status.items.map(\.result) == [.written])
        var bytes: [Data] = []
        for _ in 0..<2 {
            let verify = await Harness.run(
                ProbeBuild(), platform: app.platform(["-UITestVerifyKeychainV2", "-UITestCaseID", "c1"]))
            #expect(verify.status.items.map(\.result) == [.found])
            bytes.append(try Data(contentsOf: URL(fileURLWithPath: app.statusPath)))
        }
        #expect(bytes[0] == bytes[1])
        let text = String(decoding: bytes[0], as: UTF8.self)
        #expect(!text.contains(CaseSecrets(caseID: "c1")["deviceKey"]))
        #expect(text.contains("\"runtime\" : \"iOS 17.5\""))
        let cleanup = await Harness.run(ProbeBuild(), platform: app.platform(["-UITestCleanup", "-UITestCaseID", "c1"]))
        #expect(cleanup.status.items.map(\.result) == [.removed])
        let after = await Harness.run(ProbeBuild(), platform: app.platform(["-UITestVerifyKeychainV2", "-UITestCaseID", "c1"]))
        #expect(after.status.items.map(\.result) == [.missing])
        #expect(after.status.items.first?.status == -25300)
    }

    @Test("a stale status file is removed before the hook runs, so a crashed launch leaves none")
    func staleStatusRemoved() async throws {
        let app = try InProcessApp()
        _ = FileManager.default.createFile(atPath: app.statusPath, contents: Data("stale".utf8))
        struct Crashing: AppBuild {
            let buildID = "crash"
            let path: String
            func seed(_ launch: HarnessLaunch) async {}
            func seedMalformed(_ launch: HarnessLaunch) async {}
            func verify(_ launch: HarnessLaunch) async {}
            func cleanup(_ launch: HarnessLaunch) async {}
            func launch(_ launch: HarnessLaunch) async {
                launch.record("stale", .file, "exists", 0, FileManager.default.fileExists(atPath: path) ? .found : .missing)
            }
        }
        let outcome = await Harness.run(Crashing(path: app.statusPath), platform: app.platform([]))
        #expect(outcome.status.items.first?.result == .missing)
    }

    @Test("a locked read is reported as locked with -25308, never as missing")
    func lockedRead() async throws {
        let app = try InProcessApp()
        _ = await Harness.run(ProbeBuild(), platform: app.platform(["-UITestSeedLegacyKeychain", "-UITestCaseID", "c1"]))
        app.setLockState(.locked)
        let verify = await Harness.run(ProbeBuild(), platform: app.platform(["-UITestVerifyKeychainV2", "-UITestCaseID", "c1"]))
        #expect(verify.status.items.first?.result == .locked)
        #expect(verify.status.items.first?.status == -25308)
    }

    @Test("the protected-data wait comes from -UITestProtectedDataTimeout, default one second")
    func protectedDataTimeout() throws {
        let app = try InProcessApp()
        #expect(AppEnvironment(platform: app.platform([])).protectedDataTimeout == 1)
        #expect(AppEnvironment(platform: app.platform(["-UITestProtectedDataTimeout", "0.25"])).protectedDataTimeout == 0.25)
    }

    @Test("add-or-update: a second write updates the item instead of failing as a duplicate")
    func addOrUpdate() async throws {
        let app = try InProcessApp()
        let platform = app.platform([])
        let items = Keychain.withCurrent(platform.keychain) { () -> [String] in
            #expect(KeychainProbe.addOrUpdate(Data("a".utf8), service: "s", account: "x").operation == "SecItemAdd")
            let second = KeychainProbe.addOrUpdate(Data("b".utf8), service: "s", account: "x", accessible: "cku")
            #expect(second.operation == "SecItemUpdate" && second.status == 0)
            #expect(KeychainProbe.read(service: "s", account: "x").data == Data("b".utf8))
            #expect(KeychainProbe.deleteExact(service: "s", account: "y") == -25300, "exact: another account is not touched")
            return ((try? platform.keychain.dump()) ?? []).map(\.accessible)
        }
        #expect(items == ["cku"])
    }
}
