import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import Testing

/// A launch the runner killed at `--timeout` is the machine's slowness, not the app's finding: the
/// conditions that needed it are UNKNOWN and say "timed out", never FAIL (#36 item 7).
@Suite struct TimeoutTests {
    private func launch(_ index: Int, _ termination: Termination, status: Bool = true) -> LaunchRecord {
        LaunchRecord(
            index: index, build: "v2", mode: .verify, caseID: "c", runtime: .current, termination: termination,
            endedAtCrashPoint: false,
            status: status ? LaunchStatus(build: "v2", mode: .verify, caseID: "c", runtime: "iOS 17.5", items: []) : nil,
            duration: 0, mutations: [], deviceDirectory: "")
    }

    private func evidence(_ launches: [LaunchRecord]) -> CellEvidence {
        var evidence = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: .upgrade), runtime: .current, caseID: "c")
        evidence.launches = launches
        return evidence
    }

    @Test("a launch killed at the timeout is UNKNOWN naming --timeout; one that crashed is still a FAIL")
    func launchProblems() throws {
        let slow = try #require(evidence([launch(1, .timedOut(seconds: 30), status: false)]).launchProblems(.readsOldData))
        #expect(slow.map(\.verdict) == [.unknown])
        #expect(slow[0].message.contains("timed out") && slow[0].message.contains("--timeout"), "\(slow[0].message)")
        let crashed = try #require(evidence([launch(1, .signaled(11), status: false)]).launchProblems(.readsOldData))
        #expect(crashed.map(\.verdict) == [.fail])
    }

    @Test("in a cell with a timed-out launch every FAIL becomes UNKNOWN with the reason; PASS stays PASS")
    func cellFailsBecomeUnknown() {
        let cell = evidence([launch(1, .exited(0)), launch(2, .timedOut(seconds: 30), status: false)])
        let findings = [
            cell.finding(.readsOldData, .fail, item: "authToken", "lost"), cell.finding(.idempotent, .pass, "ok"),
        ]
        let judged = CellJudge.timedOutAsUnknown(findings, cell)
        #expect(judged.map(\.verdict) == [.unknown, .pass])
        #expect(judged[0].message.hasPrefix(findings[0].message))
        #expect(judged[0].message.contains("02-v2-verify timed out"), "\(judged[0].message)")
        let calm = evidence([launch(1, .exited(0))])
        #expect(CellJudge.timedOutAsUnknown(findings, calm).map(\.verdict) == [.fail, .pass])
    }

    @Test("an exploration attempt whose launch timed out is unknown, not failed")
    func explorationAttempt() {
        var attempt = ExplorationAttempt(id: "crash-1")
        let slow = launch(3, .timedOut(seconds: 30), status: false)
        attempt.fail(.crashSafe, "I1 authToken: in neither the keychain nor a legacy store after the recovery")
        attempt.timedOut(slow.timeoutReason)
        #expect(attempt.outcome == .unknown)
        #expect(attempt.reasons.last?.contains("timed out") == true)
    }
}
