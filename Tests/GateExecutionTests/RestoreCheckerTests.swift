import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import Testing
import UpgradeContract

/// survives-restore on hand-made evidence, for backup-after-migration's rule: a secret the old build
/// kept device-bound must not start to travel with the migration.
@Suite struct RestoreCheckerTests {
    private func cell(_ scenario: Scenario, startedToTravel: [RestoreFacts.StartedToTravel]) -> CellEvidence {
        var evidence = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "v1", new: "v2"), scenario: scenario), runtime: .current, caseID: "c")
        evidence.declarations = .sample
        evidence.seeded = ["authToken", "deviceKey"]
        func check(_ name: String, _ result: ItemResult) -> ItemCheck {
            ItemCheck(
                name: name, location: .keychain, operation: "SecItemCopyMatching", status: 0, runtime: "iOS 17.5", result: result)
        }
        func launch(_ index: Int, _ build: String, _ mode: LaunchMode, _ results: [(String, ItemResult)]) -> LaunchRecord {
            LaunchRecord(
                index: index, build: build, mode: mode, caseID: "c", runtime: .current, termination: .exited(0),
                endedAtCrashPoint: false,
                status: LaunchStatus(
                    build: build, mode: mode, caseID: "c", runtime: "iOS 17.5", items: results.map { check($0.0, $0.1) },
                    errors: []),
                duration: 0, mutations: [], deviceDirectory: "")
        }
        var verify = launch(4, "v2", .verify, [("authToken", .found), ("deviceKey", .found)])
        verify.secretPlaces = ["authToken": .keychain, "deviceKey": .keychain]
        evidence.launches = [
            launch(1, "v1", .seed, [("authToken", .written), ("deviceKey", .written)]), launch(2, "v2", .launch, []),
            launch(3, "v2", .launch, []), verify,
        ]
        var facts = RestoreFacts(
            travelled: ["authToken", "deviceKey"], keychainItems: 2, keychainItemsLeftBehind: 0, leftOut: 0, newIdentity: true)
        facts.startedToTravel = startedToTravel
        evidence.facts = .restore(facts)
        return evidence
    }

    @Test(
        "every travelled secret reading back passes; one the old build kept ThisDeviceOnly that now travels fails, naming its old place"
    )
    func startedToTravel() {
        #expect(SurvivesRestore.check(cell(.backupAfterMigration, startedToTravel: [])).map(\.verdict) == [.pass])
        let findings = SurvivesRestore.check(
            cell(
                .backupAfterMigration,
                startedToTravel: [.init(label: "deviceKey", oldPlace: "keychain genp svc/deviceKey (cku)")]))
        #expect(findings.map(\.verdict) == [.fail])
        #expect(findings.first?.item == "deviceKey")
        #expect(findings.first?.message.contains("kept it device-bound in keychain genp svc/deviceKey (cku)") == true)
    }
}
