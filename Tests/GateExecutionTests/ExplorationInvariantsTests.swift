import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import Testing

/// The exploration invariants judged on attempt records made by hand: what the explorer records is
/// judged here, without a launch, so each invariant is shown to fail on its own.
@Suite("Exploration invariants on hand-made attempt records")
struct ExplorationInvariantsTests {
    /// A cell whose only per-launch checker is honest-status, with nothing declared.
    static var cell: CellContext { CellContext(declarations: .none, newBuild: "v2", checkers: [HonestStatus.self]) }

    private func launch(
        _ index: Int, _ mode: LaunchMode = .launch, termination: Termination = .exited(0), items: [ItemCheck] = [],
        migration: MigrationState? = .migrated, mutations: Int = 1
    ) -> LaunchRecord {
        let status = LaunchStatus(
            build: "v2", mode: mode, caseID: "c", runtime: "iOS 17.5",
            migration: migration.map { MigrationOutcome(state: $0) }, items: items)
        // Entries as a launch's mutation log holds them (SeamEntry is decoded, never built).
        let entries = (0..<mutations).map { index in
            let json =
                #"{"sequence":\#(index + 1),"operation":"SecItemAdd","subject":{"store":"keychain","account":"x"},"status":0,"mutation":\#(index + 1)}"#
            return try! JSONDecoder().decode(SeamEntry.self, from: Data(json.utf8))
        }
        return LaunchRecord(
            index: index, build: "v2", mode: mode, caseID: "c", runtime: .current, termination: termination,
            endedAtCrashPoint: false,
            status: termination == .exited(0) ? status : nil,
            statusBytes: termination == .exited(0) ? try! status.encoded() : nil, duration: 0, mutations: entries,
            deviceDirectory: "")
    }

    private func found(_ label: String) -> ItemCheck {
        ItemCheck(
            name: label, location: .keychain, operation: "SecItemCopyMatching", status: 0, runtime: "iOS 17.5", result: .found)
    }

    private func judge(_ steps: [AttemptRecord.Step], seeded: [String] = ["authToken"]) -> ExplorationAttempt {
        var record = AttemptRecord(id: "crash 1")
        record.seeded = seeded
        record.steps = steps
        return ExplorationInvariants.judge(record, in: Self.cell)
    }

    private let snapshot = DeviceSnapshot(keychain: [], preferences: ["k": "d1"], files: [:])

    @Test("interleavings: a secret held by two keychain items after a clean run is a duplicate; one is not")
    func duplicateAfterCleanRun() {
        let two = judge([.holders(["authToken": ["genp app/authToken", "genp app.v2/authToken"]], migration: .migrated)])
        #expect(two.outcome == .failed)
        #expect(two.conditions == [.crashSafe])
        #expect(
            two.reasons == [
                "authToken: a duplicate after a clean run, held by 2 keychain items (genp app/authToken, genp app.v2/authToken)"
            ])
        #expect(judge([.holders(["authToken": ["genp app.v2/authToken"]], migration: .migrated)]).outcome == .ok)
        // A migration that did not end cleanly may leave both: I1 and the recovery judge it.
        #expect(
            judge([.holders(["authToken": ["genp app/authToken", "genp app.v2/authToken"]], migration: .failed)]).outcome == .ok)
    }

    @Test("a recovery that keeps every secret, leaves the store as it was and reads back is ok")
    func recoveredAttemptIsOK() {
        let attempt = judge([
            .launch(launch(1), needed: .crashSafe),
            .located(["authToken": .keychain], when: "after recovery", crashed: nil),
            .relaunched(before: snapshot, after: snapshot),
            .launch(launch(2, .verify, items: [found("authToken")]), needed: .readsOldData),
            .verified(launch(2, .verify, items: [found("authToken")])),
            .settled(["authToken": .keychain], migration: .migrated),
        ])
        #expect(attempt.outcome == .ok && attempt.reasons.isEmpty)
    }

    @Test("I1: a secret in neither place fails crash-safe, naming when")
    func lostSecret() {
        let attempt = judge([.located(["authToken": []], when: "after the crash", crashed: nil)])
        #expect(attempt.outcome == .failed && attempt.conditions == [.crashSafe])
        #expect(attempt.reasons == ["I1 authToken: in neither the keychain nor a legacy store after the crash"])
    }

    @Test("I4: another launch that changes the store fails, naming what changed")
    func relaunchChanges() {
        let after = DeviceSnapshot(keychain: [], preferences: ["k": "d2"], files: [:])
        let attempt = judge([.relaunched(before: snapshot, after: after)])
        #expect(attempt.outcome == .failed && attempt.reasons.first?.hasPrefix("I4 another launch changed the store") == true)
    }

    @Test("the verify after recovery fails reads-old-data for a secret not found")
    func verifyMisses() {
        let attempt = judge([.verified(launch(3, .verify, items: []))])
        #expect(attempt.conditions == [.readsOldData])
        #expect(attempt.reasons == ["authToken: read back as unreported after recovery"])
    }

    @Test("I3: legacy plaintext after a clean run fails; before the migration is done it does not")
    func legacyAfterCleanRun() {
        #expect(judge([.settled(["authToken": [.keychain, .legacy]], migration: .migrated)]).outcome == .failed)
        #expect(judge([.settled(["authToken": [.keychain, .legacy]], migration: .deferred)]).outcome == .ok)
        #expect(judge([.settled(["authToken": [.keychain, .legacy]], migration: nil)]).outcome == .ok)
    }

    @Test("a needed launch that crashed fails its condition and adds its operations to the log")
    func neededLaunchCrashed() {
        let attempt = judge([.launch(launch(2, termination: .signaled(9), mutations: 2), needed: .lockedLaunchSafe)])
        #expect(attempt.outcome == .failed && attempt.conditions == [.lockedLaunchSafe])
        #expect(attempt.log.count == 2)
    }

    @Test("nothing seeded, a first launch that logged nothing, or a stopped attempt is unknown, never ok")
    func unknownAttempts() {
        #expect(judge([], seeded: []).outcome == .unknown)
        #expect(judge([.planned(launch(1, mutations: 0))]).outcome == .unknown)
        var stopped = AttemptRecord(id: "crash 2")
        stopped.seeded = ["authToken"]
        stopped.stopped = "cannot clone"
        let judged = ExplorationInvariants.judge(stopped, in: Self.cell)
        #expect(judged.outcome == .unknown && judged.reasons == ["the attempt stopped: cannot clone"])
    }

    @Test("an interrupted attempt is unknown whatever it saw")
    func interrupted() {
        var record = AttemptRecord(id: "crash 3")
        record.seeded = ["authToken"]
        record.steps = [.located(["authToken": []], when: "after the crash", crashed: nil)]
        record.interrupted = true
        #expect(ExplorationInvariants.judge(record, in: Self.cell).outcome == .unknown)
    }

    @Test("a dishonest status file of any of the attempt's launches fails honest-status")
    func dishonestLaunch() {
        var record = AttemptRecord(id: "baseline")
        record.seeded = ["authToken"]
        let wrong = ItemCheck(
            name: "cache", location: .keychain, operation: "SecItemCopyMatching", status: -25308, runtime: "iOS 17.5",
            result: .found)
        record.launches = [launch(1), launch(2, items: [wrong])]
        let judged = ExplorationInvariants.judge(record, in: Self.cell)
        #expect(judged.conditions == [.honestStatus], "\(judged.reasons)")
        #expect(judged.reasons.first?.hasPrefix("02-v2-launch: cache: found with SecItemCopyMatching") == true)
    }

    /// A per-launch condition that fails every launch of the new build in verify mode.
    private enum VerifyForbidden: LaunchChecker {
        static let condition = GateCondition.idempotent
        static func check(_ evidence: CellEvidence) -> [GateFinding] { launchFailures(evidence) }
        static func problems(_ launch: LaunchRecord, in cell: CellContext) -> [String] {
            launch.build == cell.newBuild && launch.mode == .verify ? ["a verify launch"] : []
        }
    }

    @Test("every per-launch checker of the cell judges every launch of the attempt, under its own condition")
    func perLaunchCheckers() {
        var record = AttemptRecord(id: "baseline")
        record.seeded = ["authToken"]
        record.launches = [launch(1), launch(2, .verify)]
        let cell = CellContext(declarations: .none, newBuild: "v2", checkers: [HonestStatus.self, VerifyForbidden.self])
        let judged = ExplorationInvariants.judge(record, in: cell)
        #expect(judged.conditions == [.idempotent] && judged.reasons == ["02-v2-verify: a verify launch"])
    }

    @Test("I7: a launch after the recovery whose startup read misses a secret the old build's found fails stays-signed-in")
    func signedInAfterRecovery() {
        func withStartup(_ index: Int, _ result: ItemResult?) -> LaunchRecord {
            var record = launch(index)
            record.status?.startup = result.map {
                [
                    ItemCheck(
                        name: "authToken", location: .keychain, operation: "SecItemCopyMatching",
                        status: $0 == .found ? 0 : -25300,
                        runtime: "iOS 17.5", result: $0)
                ]
            }
            return record
        }
        let kept = judge([.signedIn([withStartup(3, .found), withStartup(4, .found)], baseline: ["authToken"], source: "v1")])
        #expect(kept.outcome == .ok)
        // A build with no startup read is not judged here (preflight names it).
        #expect(judge([.signedIn([withStartup(3, nil)], baseline: ["authToken"], source: "v1")]).outcome == .ok)
        let signedOut = judge([
            .signedIn([withStartup(3, .found), withStartup(4, .missing)], baseline: ["authToken"], source: "v1's startup read")
        ])
        #expect(signedOut.outcome == .failed && signedOut.conditions == [.staysSignedIn])
        #expect(
            signedOut.reasons == [
                "I7 authToken: 04-v2-launch after the recovery read it missing (-25300); v1's startup read found it"
            ])
    }
}
