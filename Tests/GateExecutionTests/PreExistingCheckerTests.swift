import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import Testing

/// Pre-existing per finding through the real checkers: the release's cell and its baseline's are
/// judged by the same checker on hand-made evidence (an app of two secrets, a PIN in an app-group
/// file and a token in preferences, not the sample's shape), and the engine matches their findings.
@Suite("pre-existing per finding, through the checkers")
struct PreExistingCheckerTests {
    private let release = PlanUnit(path: BuildPair(old: "v1", new: "v3"), scenario: .malformed)
    private var baseline: PlanUnit { PreExisting.baseline(of: release, builds: ["v1", "v2", "v3"])! }
    private let seeded = DeviceSnapshot(
        keychain: [], preferences: ["token": "t1"], files: [:], groupFiles: ["group.pins/pin.json": "p1"])

    private func launch(_ index: Int, _ build: String, _ mode: LaunchMode, errors: [ItemCheck] = []) -> LaunchRecord {
        LaunchRecord(
            index: index, build: build, mode: mode, caseID: "c", runtime: .current, termination: .exited(0),
            endedAtCrashPoint: false,
            status: LaunchStatus(build: build, mode: mode, caseID: "c", runtime: "iOS 17.5", errors: errors),
            duration: 0, mutations: [], deviceDirectory: "")
    }

    /// malformed-keeps-old's findings on `unit`, whose new build left the device as `after`.
    private func judged(_ unit: PlanUnit, after: DeviceSnapshot) -> [GateFinding] {
        var evidence = CellEvidence(unit: unit, runtime: .current, caseID: "c")
        evidence.seeded = ["pin", "token"]
        evidence.snapshots = [.afterSeed: seeded, .afterFirstLaunch: after]
        let reported = ItemCheck(
            name: "pin", location: .file, operation: "JSONDecoder.decode", status: 0, runtime: "iOS 17.5", result: .failed)
        evidence.launches = [
            launch(1, "v1", .seed), launch(2, unit.path.new, .launch, errors: [reported]), launch(3, unit.path.new, .verify),
        ]
        return MalformedKeepsOld.check(evidence)
    }

    private func verdict(release findings: [GateFinding], baseline found: [GateFinding]) -> GateReport {
        let cell = GateCell(path: release.runtimePath, scenario: .malformed, condition: .malformedKeepsOld)
        let baselines = PreExisting.judged(original: release, baseline: baseline, findings: found).filter { $0.key == cell }
        return GateEngine.evaluate(expected: [cell], findings: findings, release: "v3", baselines: baselines)
    }

    @Test("the baseline overwrote the malformed token, the release deletes the PIN's app-group file: FAIL, nothing pre-existing")
    func anotherSecret() {
        let pinDeleted = DeviceSnapshot(keychain: [], preferences: ["token": "t1"], files: [:], groupFiles: [:])
        let tokenOverwritten = DeviceSnapshot(
            keychain: [], preferences: ["token": "t2"], files: [:], groupFiles: ["group.pins/pin.json": "p1"])
        let mine = judged(release, after: pinDeleted)
        let theirs = judged(baseline, after: tokenOverwritten)
        #expect(mine.map(\.verdict) == [.fail] && theirs.map(\.verdict) == [.fail])
        #expect(mine.first?.key == FindingKey("group.pins/pin.json", in: .appGroupFile, .deleted))
        #expect(theirs.first?.key == FindingKey("token", in: .preference, .overwritten))
        let report = verdict(release: mine, baseline: theirs)
        #expect(report.verdict == .fail && report.preExisting == nil)
        #expect(report.reasons == ["v1-to-v3/malformed/malformed-keeps-old: group.pins/pin.json: legacy app group file deleted"])
    }

    @Test("the baseline deleted the same PIN file: the release's finding is pre-existing, beside the baseline's")
    func sameFinding() {
        let pinDeleted = DeviceSnapshot(keychain: [], preferences: ["token": "t1"], files: [:], groupFiles: [:])
        let mine = judged(release, after: pinDeleted)
        let theirs = judged(baseline, after: pinDeleted)
        let report = verdict(release: mine, baseline: theirs)
        #expect(report.verdict == .pass)
        #expect(report.preExisting?.first?.findings == [GateReport.Excused(finding: mine[0], baseline: theirs[0])])
        #expect(report.preExisting?.first?.shownBy == "v1-to-v1/malformed")
    }

    @Test(
        "reads-old-data names a lost secret by its label, whichever build's launch lost it: the same loss matches, another secret does not"
    )
    func readsOldDataKeys() {
        func lost(_ label: String, on unit: PlanUnit) -> [GateFinding] {
            var evidence = CellEvidence(unit: unit, runtime: .current, caseID: "c")
            evidence.seeded = ["pin", "token"]
            let items = ["pin", "token"].map {
                ItemCheck(
                    name: $0, location: .keychain, operation: "SecItemCopyMatching", status: $0 == label ? -25300 : 0,
                    runtime: "iOS 17.5", result: $0 == label ? .missing : .found)
            }
            var verify = LaunchRecord(
                index: 3, build: unit.path.new, mode: .verify, caseID: "c", runtime: .current, termination: .exited(0),
                endedAtCrashPoint: false,
                status: LaunchStatus(build: unit.path.new, mode: .verify, caseID: "c", runtime: "iOS 17.5", items: items),
                duration: 0, mutations: [], deviceDirectory: "")
            verify.secretPlaces = ["pin": .keychain, "token": .keychain]
            evidence.launches = [verify]
            return ReadsOldData.check(evidence)
        }
        let upgrade = PlanUnit(path: BuildPair(old: "v1", new: "v3"), scenario: .upgrade)
        let base = PreExisting.baseline(of: upgrade, builds: ["v1", "v3"])!
        let mine = lost("pin", on: upgrade)
        #expect(mine.map(\.key) == [FindingKey("pin", in: .secret, .wrongResult)])
        #expect(lost("pin", on: base).map(\.key) == mine.map(\.key))
        #expect(lost("token", on: base).map(\.key) != mine.map(\.key))
        let cell = GateCell(path: upgrade.runtimePath, scenario: .upgrade, condition: .readsOldData)
        for (other, verdict) in [("pin", Verdict.pass), ("token", .fail)] {
            let baselines = PreExisting.judged(original: upgrade, baseline: base, findings: lost(other, on: base)).filter {
                $0.key == cell
            }
            #expect(
                GateEngine.evaluate(expected: [cell], findings: mine, release: "v3", baselines: baselines).verdict == verdict,
                "\(other)")
        }
    }
}
