import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import Testing

/// stays-signed-in on hand-made evidence: what the user sees after the upgrade, launch by launch,
/// against what the old build's own startup read found.
@Suite("stays-signed-in on hand-made evidence")
struct StaysSignedInTests {
    private typealias Read = (String, ItemResult)

    private func launch(
        _ index: Int, _ build: String, _ mode: LaunchMode, startup: [Read]?, written: [String] = []
    ) -> LaunchRecord {
        func check(_ name: String, _ result: ItemResult) -> ItemCheck {
            let status: Int32 = result == .locked ? -25308 : result == .missing ? -25300 : 0
            return ItemCheck(
                name: name, location: .keychain, operation: "SecItemCopyMatching", status: status, runtime: "iOS 17.5",
                result: result)
        }
        return LaunchRecord(
            index: index, build: build, mode: mode, caseID: "c", runtime: .current, termination: .exited(0),
            endedAtCrashPoint: false,
            status: LaunchStatus(
                build: build, mode: mode, caseID: "c", runtime: "iOS 17.5", items: written.map { check($0, .written) },
                startup: startup.map { $0.map { check($0.0, $0.1) } }),
            duration: 0, mutations: [], deviceDirectory: "")
    }

    /// An upgrade cell (locked-reads when a launch runs locked): v1 seeds (its startup read `old`), then v2's launch and verify read `first` and `verify`.
    private func cell(old: [Read]?, first: [Read]?, verify: [Read]?, lockStates: [Int: LockState] = [:]) -> CellEvidence {
        var evidence = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: lockStates.isEmpty ? .upgrade : .lockedReads),
            runtime: .current, caseID: "c")
        evidence.declarations = .sample
        evidence.seeded = ["authToken", "refreshToken"]
        evidence.launches = [
            launch(1, "v1", .seed, startup: old, written: ["authToken", "refreshToken"]),
            launch(2, "v2", .launch, startup: first),
            launch(3, "v2", .verify, startup: verify),
        ]
        if !lockStates.isEmpty {
            var facts = LockedReadsFacts(availability: [])
            facts.lockStates = lockStates
            evidence.facts = .lockedReads(facts)
        }
        return evidence
    }

    private let both: [Read] = [("authToken", .found), ("refreshToken", .found)]

    @Test("a first launch that reads before it migrates fails, naming the launch, the read and the old build's")
    func readsFirst() throws {
        let findings = StaysSignedIn.check(
            cell(old: both, first: [("authToken", .found), ("refreshToken", .missing)], verify: both))
        let failure = try #require(findings.first)
        #expect(findings.count == 1 && failure.verdict == .fail && failure.item == "refreshToken")
        #expect(
            failure.message.contains(
                "the first launch of v2 after the upgrade (02-v2-launch) read it missing (-25300); v1's startup read at its seed found it"
            ))
    }

    @Test("every launch that finds what the old build found passes")
    func keeps() {
        let findings = StaysSignedIn.check(cell(old: both, first: both, verify: both))
        #expect(findings.map(\.verdict) == [.pass])
    }

    @Test("what the old build's read did not find is not required")
    func onlyWhatTheOldFound() {
        let findings = StaysSignedIn.check(
            cell(old: [("authToken", .found), ("refreshToken", .mismatch)], first: [("authToken", .found)], verify: both))
        #expect(findings.map(\.verdict) == [.pass])
    }

    @Test("locked is not required in a locked launch, but missing is; and locked fails an unlocked launch")
    func lockStates() {
        let lockedOK = StaysSignedIn.check(
            cell(
                old: both, first: both, verify: [("authToken", .locked), ("refreshToken", .locked)],
                lockStates: [3: .beforeFirstUnlock]))
        #expect(lockedOK.map(\.verdict) == [.pass])
        let emptyRead = StaysSignedIn.check(
            cell(old: both, first: both, verify: [("authToken", .missing), ("refreshToken", .locked)], lockStates: [3: .locked]))
        #expect(emptyRead.map(\.verdict) == [.fail] && emptyRead[0].item == "authToken")
        #expect(emptyRead[0].message.contains("(03-v2-verify, locked) read it missing"))
        let unlocked = StaysSignedIn.check(
            cell(old: both, first: [("authToken", .locked), ("refreshToken", .found)], verify: both))
        #expect(unlocked.map(\.verdict) == [.fail])
    }

    @Test("an old build with no startup read stands for one that found what its seed wrote")
    func noOldRead() {
        let findings = StaysSignedIn.check(cell(old: nil, first: [("authToken", .found)], verify: both))
        #expect(findings.map(\.verdict) == [.fail] && findings[0].item == "refreshToken")
        #expect(findings[0].message.contains("v1 (no startup read registered: what its seed wrote) found it"))
    }

    @Test("a new build with no startup read is not judged, says so, and is marked not judged (never counted as PASS)")
    func noNewRead() {
        let findings = StaysSignedIn.check(cell(old: both, first: nil, verify: nil))
        #expect(findings.map(\.verdict) == [.pass] && findings[0].message.contains("not judged: v2 registers no startup read"))
        #expect(findings[0].notJudged == true)
        // A judged cell is not marked.
        #expect(StaysSignedIn.check(cell(old: both, first: both, verify: both)).allSatisfy { $0.notJudged == nil })
    }

    @Test("an exploration's or seed variants' PASS of a new build with no startup read is not judged; a FAIL stays")
    func explorationWithoutStartupRead() {
        let unit = PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: .crashPoints)
        func finding(_ condition: GateCondition, _ verdict: Verdict) -> GateFinding {
            GateFinding(condition, path: unit.runtimePath, scenario: unit.scenario, verdict: verdict, detail: "all 7 attempts ok")
        }
        let passed = [finding(.crashSafe, .pass), finding(.staysSignedIn, .pass)]
        let judged = StaysSignedIn.judgedWithoutStartupRead(passed, unit: unit, unread: ["v2"])
        #expect(judged.first { $0.condition == .staysSignedIn }?.notJudged == true)
        #expect(
            judged.first { $0.condition == .staysSignedIn }?.message
                == "not judged: v2 registers no startup read (AppBuild.startupRead)")
        #expect(judged.first { $0.condition == .crashSafe } == passed[0])
        // A build that registers one, and a FAIL, are left as they are.
        #expect(StaysSignedIn.judgedWithoutStartupRead(passed, unit: unit, unread: ["v1"]) == passed)
        let failed = [finding(.staysSignedIn, .fail)]
        #expect(StaysSignedIn.judgedWithoutStartupRead(failed, unit: unit, unread: ["v2"]) == failed)
    }

    @Test("after the test's own cleanup launch, signed out is right")
    func afterCleanup() {
        var evidence = cell(old: both, first: both, verify: both)
        evidence.launches.append(launch(4, "v2", .cleanup, startup: [("authToken", .missing), ("refreshToken", .missing)]))
        evidence.launches.append(launch(5, "v2", .verify, startup: [("authToken", .missing), ("refreshToken", .missing)]))
        #expect(StaysSignedIn.check(evidence).map(\.verdict) == [.pass])
    }
    /// A second-device cell: v1 seeds on A; v1's first launch on B reads `bFirst` (B's baseline); v2
    /// migrates on A; v1 on B reads `bAfter`; v2 on A launches and verifies.
    private func secondDevice(bFirst: [Read], bAfter: [Read]) -> CellEvidence {
        var evidence = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: .secondDevice), runtime: .current, caseID: "c")
        evidence.declarations = .sample
        evidence.seeded = ["authToken", "refreshToken"]
        var launches = [
            launch(1, "v1", .seed, startup: both, written: ["authToken", "refreshToken"]),
            launch(2, "v1", .launch, startup: bFirst), launch(3, "v2", .launch, startup: both),
            launch(4, "v1", .launch, startup: bAfter), launch(5, "v2", .launch, startup: both),
            launch(6, "v2", .verify, startup: both),
        ]
        for index in launches.indices { launches[index].device = [1, 3].contains(index) ? "B" : "A" }
        evidence.launches = launches
        return evidence
    }

    @Test("second-device: the old release on device B is judged against its own first read, and the finding names B")
    func secondDeviceJudgesB() throws {
        // B's first read found only what synced (authToken); after the sync, missing there signs the user out on B.
        let failing = StaysSignedIn.check(
            secondDevice(bFirst: [("authToken", .found), ("refreshToken", .missing)], bAfter: [("authToken", .missing)]))
        let failure = try #require(failing.first)
        #expect(failing.count == 1 && failure.verdict == .fail && failure.item == "authToken")
        #expect(
            failure.message.contains(
                "the first launch of v1 on device B after device A's upgrade and a sync (04-v1-on-B-launch) read it missing (-25300); "
                    + "v1's startup read on device B before the upgrade (02-v1-on-B-launch) found it"), "\(failure.message)")
        // What B's first read did not find is not required there; A's launches still are.
        let passing = StaysSignedIn.check(
            secondDevice(bFirst: [("authToken", .found), ("refreshToken", .missing)], bAfter: [("authToken", .found)]))
        #expect(passing.map(\.verdict) == [.pass])
        #expect(passing.first?.message.contains("1 launch(es) of v1 on device B after the syncs read authToken") == true)
    }
}
