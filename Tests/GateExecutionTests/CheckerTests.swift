import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimRuntime
import Testing

/// Checkers judged on evidence built by hand, so that each failure mode is shown to fail.
@Suite("Gate checkers on hand-made evidence")
struct CheckerTests {
    private func item(
        _ account: String, digest: String = "d", accessible: String = "cku", group: String = "T.app"
    ) -> DeviceSnapshot.Item {
        DeviceSnapshot.Item(
            itemClass: "genp", accessGroup: group, service: "svc", account: account, accessible: accessible,
            synchronizable: false, digest: digest)
    }

    private func evidence(_ scenario: Scenario, snapshots: [Moment: DeviceSnapshot]) -> CellEvidence {
        var evidence = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: scenario),
            runtime: .current, caseID: "c")
        evidence.snapshots = snapshots
        return evidence
    }

    private func snapshot(_ items: [DeviceSnapshot.Item]) -> DeviceSnapshot {
        DeviceSnapshot(keychain: items, preferences: [:], files: [:])
    }

    @Test("a launch's stem is its index in at least two digits, its build and its mode, as %02d-%@-%@ writes them")
    func stems() {
        for (index, stem) in [(3, "03-v2-verify"), (12, "12-v2-verify"), (104, "104-v2-verify"), (0, "00-v2-verify")] {
            #expect(LaunchRecord.stem(index: index, build: "v2", mode: .verify) == stem)
            #expect(stem == String(format: "%02d-%@-%@", index, "v2", "verify"))
        }
    }

    @Test("cleanup-exact passes when only the case's items go, and fails when another item goes or one of the case's stays")
    func cleanupExact() {
        let other = item("deviceKey.c-other"), ours = item("authToken", digest: "new")
        let before = snapshot([other, ours])
        let pass = evidence(
            .cleanup,
            snapshots: [
                .beforeCase: snapshot([other]), .beforeCleanup: before,
                .afterCleanup: snapshot([other]),
            ])
        #expect(CleanupExact.check(pass).map(\.verdict) == [.pass])
        let broad = evidence(
            .cleanup,
            snapshots: [
                .beforeCase: snapshot([other]), .beforeCleanup: before,
                .afterCleanup: snapshot([]),
            ])
        #expect(CleanupExact.check(broad).contains { $0.verdict == .fail && $0.item == other.key })
        let lazy = evidence(
            .cleanup,
            snapshots: [
                .beforeCase: snapshot([other]), .beforeCleanup: before,
                .afterCleanup: before,
            ])
        #expect(CleanupExact.check(lazy).contains { $0.verdict == .fail && $0.item == ours.key })
    }

    @Test("idempotent fails when a relaunch changes an item, naming it but not its value")
    func idempotent() {
        let a = snapshot([item("authToken", digest: "1")]), b = snapshot([item("authToken", digest: "2")])
        let changed = evidence(.relaunch, snapshots: [.afterFirstLaunch: a, .afterRelaunch1: a, .afterRelaunch2: b])
        let findings = Idempotent.check(changed)
        #expect(findings.map(\.verdict) == [.fail])
        #expect(findings.first?.message.contains("authToken") == true)
        let same = evidence(.relaunch, snapshots: [.afterFirstLaunch: a, .afterRelaunch1: a, .afterRelaunch2: a])
        #expect(Idempotent.check(same).map(\.verdict) == [.pass])
    }

    @Test("isolation fails when another team's item changes")
    func isolation() {
        let neighbour = item("session", group: "NEIGHBOUR1.com.neighbour.wallet")
        let changed = item("session", digest: "x", group: "NEIGHBOUR1.com.neighbour.wallet")
        func verdicts(after: DeviceSnapshot.Item) -> [Verdict] {
            Isolation.check(
                evidence(.isolation, snapshots: [.neighbourBefore: snapshot([neighbour]), .neighbourAfter: snapshot([after])])
            ).map(\.verdict)
        }
        #expect(verdicts(after: changed) == [.fail])
        #expect(verdicts(after: neighbour) == [.pass])
    }

    @Test("exploration findings: a failed attempt fails with its reasons and log; an aborted cell is UNKNOWN")
    func exploration() {
        var cell = evidence(.crashPoints, snapshots: [:])
        var failed = ExplorationAttempt(id: "crash 3")
        failed.fail(.crashSafe, "I1 authToken: in neither the keychain nor a legacy store after the crash")
        failed.log = ["02-v2-launch #5 preferences.write preferences authToken 0 (mutation 3)"]
        cell.facts = .exploration(
            ExplorationFacts(attempts: [ExplorationAttempt(id: "baseline"), failed], note: "1 crash point"))
        let findings = CrashSafe.check(cell)
        #expect(findings.count == 1 && findings[0].verdict == .fail && findings[0].item == "crash 3")
        #expect(findings[0].message.contains("mutation 3"))
        cell.aborted = "cannot prepare a device"
        #expect(CellJudge.judge(cell).allSatisfy { $0.verdict == .unknown })
    }

    private func verify(_ results: [(String, String)], case caseID: String = "c") -> LaunchRecord {
        let items = results.map {
            ItemCheck(
                name: $0.0, location: .keychain, operation: "SecItemCopyMatching", status: 0, runtime: "iOS 17.5",
                result: ItemResult(rawValue: $0.1)!)
        }
        return LaunchRecord(
            index: 3, build: "v2", mode: .verify, caseID: "c", runtime: .current, termination: .exited(0),
            endedAtCrashPoint: false,
            status: LaunchStatus(build: "v2", mode: .verify, caseID: caseID, runtime: "iOS 17.5", items: items),
            duration: 0, mutations: [], deviceDirectory: "")
    }

    /// `record` with every secret it reports found also on the device, in a keychain item.
    private func placed(_ record: LaunchRecord) -> LaunchRecord {
        var record = record
        var places = record.secretPlaces ?? [:]
        for item in record.status?.items ?? [] where item.result == .found { places[item.name] = .keychain }
        record.secretPlaces = places
        return record
    }

    @Test("reads-old-data judges every verify launch: found before the test's cleanup, missing after it")
    func finalRereadAfterCleanup() {
        var cell = evidence(.cleanup, snapshots: [:])
        cell.seeded = ["authToken", "session"]
        let cleanup = LaunchRecord(
            index: 4, build: "v2", mode: .cleanup, caseID: "c", runtime: .current, termination: .exited(0),
            endedAtCrashPoint: false,
            status: LaunchStatus(build: "v2", mode: .cleanup, caseID: "c", runtime: "iOS 17.5", items: []),
            duration: 0, mutations: [], deviceDirectory: "")
        let found = placed(verify([("authToken", "found"), ("session", "found")]))
        let missing = verify([("authToken", "missing"), ("session", "missing")])
        cell.launches = [found, cleanup, missing]
        #expect(ReadsOldData.check(cell).map(\.verdict) == [.pass])
        cell.launches = [found, cleanup, verify([("authToken", "missing"), ("session", "found")])]
        let findings = ReadsOldData.check(cell)
        #expect(findings.map(\.verdict) == [.fail] && findings[0].item == "session")
        #expect(findings[0].message.contains("after the test's cleanup (expected missing)"), "\(findings[0].message)")
    }

    @Test("reads-old-data fails a secret lost on a later launch: the final re-read of artefact-window reads it missing")
    func finalRereadLoss() {
        var cell = evidence(.artefactWindow, snapshots: [:])
        cell.seeded = ["authToken", "session"]
        cell.launches = [placed(verify([("authToken", "found"), ("session", "missing")]))]
        let findings = ReadsOldData.check(cell)
        #expect(findings.map(\.verdict) == [.fail] && findings[0].item == "session")
        cell.launches = []
        #expect(ReadsOldData.check(cell).map(\.verdict) == [.unknown], "no final verify launch: nothing proven")
    }

    @Test("idempotent judges the final relaunch of a scenario that changes the device after the upgrade")
    func finalRelaunch() {
        let before = snapshot([item("authToken")])
        var cell = evidence(.artefactWindow, snapshots: [.beforeFinalRelaunch: before, .afterFinalRelaunch: before])
        #expect(Idempotent.check(cell).map(\.verdict) == [.pass])
        cell.snapshots[.afterFinalRelaunch] = snapshot([])
        let findings = Idempotent.check(cell)
        #expect(findings.map(\.verdict) == [.fail] && findings[0].message.contains("authToken/0 removed"))
        cell.snapshots = [:]
        #expect(Idempotent.check(cell).map(\.verdict) == [.unknown])
    }

    @Test("no-false-pass fails when any one of the case's secrets reads as found, and passes when none does")
    func noFalsePass() {
        var cell = evidence(.staleLeftovers, snapshots: [:])
        cell.declarations = .sample
        cell.launches = [
            verify([("authToken", "found"), ("refreshToken", "mismatch"), ("session", "mismatch"), ("deviceKey", "missing")])
        ]
        let findings = NoFalsePass.check(cell)
        #expect(findings.map(\.verdict) == [.fail] && findings.first?.item == "authToken")
        cell.launches = [
            verify([("authToken", "mismatch"), ("refreshToken", "mismatch"), ("session", "mismatch"), ("deviceKey", "missing")])
        ]
        #expect(NoFalsePass.check(cell).map(\.verdict) == [.pass])
    }

    @Test(
        "conditions about old data fail when the old build's seed wrote no secret",
        arguments: [
            Scenario.reinstall, .malformed, .artefactWindow, .upgrade,
        ])
    func nothingSeeded(_ scenario: Scenario) {
        let empty = snapshot([])
        var cell = evidence(
            scenario, snapshots: [.afterSeed: empty, .afterFirstLaunch: empty, .day29: empty, .day31: empty])
        cell.launches = [verify([])]
        cell.seeded = []
        // honest-status judges the files, which can be honest about writing nothing.
        let findings = CellJudge.judge(cell).filter { $0.condition != .honestStatus }
        #expect(findings.contains { $0.verdict == .fail && $0.message.contains("seed launch reported no secret written") })
        #expect(!findings.contains { $0.verdict == .pass })
    }

    @Test("finding texts lose seeded secrets, temporary paths and UUIDs")
    func sanitizer() throws {
        let secrets = GatePipeline.sampleSecrets(caseID: "c")
        let token = CaseSecrets(caseID: "c")["authToken"]
        let sanitizer = FindingSanitizer(secrets: secrets, workRoot: "/tmp/upgrade-runner-devices-1-X")
        #expect(!sanitizer.clean("read back as found \(token)").contains(token))
        #expect(
            sanitizer.clean("/tmp/upgrade-runner-devices-1-X/6403A776-D698-4813-9558-2D57F94D2DE7/data: gone")
                == "<devices>/<uuid>/data: gone")
    }

    @Test("pairs beyond the limit are sampled evenly and deterministically")
    func sampling() {
        #expect(Explorer.sample(5, limit: 20) == [1, 2, 3, 4, 5])
        let sample = Explorer.sample(41, limit: 20)
        #expect(sample.count == 20 && sample.first == 1 && sample.last == 41)
        #expect(sample == Explorer.sample(41, limit: 20))
    }
}

@Suite("Replay compares verdicts cell by cell")
struct ReplayVerdictTests {
    @Test("a cell whose verdict changed is reported, and the overall verdict with it")
    func verdictChanges() {
        let cell = GateCell(path: .id("v1-to-v2"), scenario: .cleanup, condition: .cleanupExact)
        func report(_ verdict: Verdict) -> GateReport {
            GateEngine.evaluate(
                expected: [cell],
                findings: [
                    GateFinding(.cleanupExact, path: .id("v1-to-v2"), scenario: .cleanup, verdict: verdict, detail: "x")
                ])
        }
        #expect(ReplayRequest.verdictChanges(archived: report(.pass), replay: report(.pass)).isEmpty)
        #expect(
            ReplayRequest.verdictChanges(archived: report(.pass), replay: report(.fail)) == [
                "verdict differs: v1-to-v2/cleanup: archived PASS, replay FAIL",
                "verdict differs: overall: archived PASS, replay FAIL",
            ])
    }
}

@Suite("Exploration coverage")
struct ExplorationCoverageTests {
    @Test(
        "an attempt covered by a failed or unknown one takes its outcome and says whose state it reached; by an ok one stays ok")
    func inherited() {
        var failed = ExplorationAttempt(id: "crash 2")
        failed.fail(.crashSafe, "I1 authToken: in neither place")
        var unknown = ExplorationAttempt(id: "crash 3")
        unknown.unknown("crash point 3 was not reached")
        var attempts = [ExplorationAttempt(id: "crash 1"), failed, unknown]
        for (id, owner) in [("crash 1 then 1", "crash 2"), ("crash 1 then 2", "crash 3"), ("crash 2 then 1", "crash 1")] {
            var covered = ExplorationAttempt(id: id)
            covered.coveredBy = owner
            attempts.append(covered)
        }
        ExplorationAttempt.inheritCoverage(&attempts)
        #expect(attempts.map(\.outcome) == [.ok, .failed, .unknown, .failed, .unknown, .ok])
        #expect(attempts[3].reasons == ["the same device state as crash 2, which failed"])
        #expect(attempts[3].conditions == [.crashSafe])
        #expect(attempts[5].reasons.isEmpty)
    }

    @Test("a covered attempt fails the condition its owner failed first (reads-old-data in write-failure)")
    func inheritedCondition() {
        var owner = ExplorationAttempt(id: "SecItemAdd 1 errSecIO")
        owner.fail(.readsOldData, "authToken: read back as missing after recovery")
        var covered = ExplorationAttempt(id: "SecItemAdd 1 errSecInteractionNotAllowed")
        covered.coveredBy = owner.id
        var attempts = [owner, covered]
        ExplorationAttempt.inheritCoverage(&attempts)
        #expect(attempts[1].outcome == .failed && attempts[1].conditions == [.readsOldData])
    }
}
