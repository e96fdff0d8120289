import Foundation
@testable import GateModel
import UpgradeContract
import Testing

@Suite struct GateModelTests {
    @Test("condition and scenario ids are docs/architecture.md's")
    func ids() {
        #expect(
            GateCondition.allCases.map(\.rawValue) == [
                "reads-old-data", "stays-signed-in", "idempotent", "malformed-keeps-old", "crash-safe", "locked-launch-safe",
                "reinstall-sweeps",
                "no-false-pass", "entitlements-compatible", "isolation", "cleanup-exact", "artefact-window",
                "keeps-availability", "keeps-protection", "survives-restore", "honest-status", "no-secret-in-artifacts",
            ])
        #expect(
            Scenario.allCases.map(\.rawValue) == [
                "fresh-install", "upgrade", "skip-version", "late-upgrade", "seed-variants", "relaunch", "malformed",
                "write-failure", "crash-points", "power-loss", "prewarm",
                "locked-background", "reinstall", "marker-without-data", "stale-leftovers", "entitlements", "isolation",
                "cleanup",
                "artefact-window", "locked-reads", "backup-restore", "reinstall-self",
                "os-update", "storage-pressure", "passcode-and-biometry", "backup-after-migration", "extension-first",
                "interleavings", "second-device",
            ])
    }

    /// docs/gate.md's table: each scenario and the conditions it checks.
    static let scenarioTable: [(Scenario, [GateCondition])] = [
        (Scenario.freshInstall, [GateCondition.idempotent, .noSecretInArtifacts]),
        (.upgrade, [.readsOldData, .staysSignedIn]), (.skipVersion, [.readsOldData, .staysSignedIn]),
        (.lateUpgrade, [.readsOldData, .staysSignedIn]), (.seedVariants, [.readsOldData, .staysSignedIn]),
        (.relaunch, [.idempotent, .readsOldData, .staysSignedIn]),
        (.malformed, [.malformedKeepsOld]), (.writeFailure, [.crashSafe, .readsOldData, .staysSignedIn]),
        (.crashPoints, [.crashSafe, .staysSignedIn]), (.powerLoss, [.crashSafe, .staysSignedIn]),
        (.prewarm, [.lockedLaunchSafe, .staysSignedIn]), (.lockedBackground, [.lockedLaunchSafe, .staysSignedIn]),
        (.reinstall, [.reinstallSweeps, .readsOldData, .idempotent]),
        (.markerWithoutData, [.readsOldData, .idempotent]), (.staleLeftovers, [.noFalsePass]),
        (.entitlements, [.entitlementsCompatible]), (.isolation, [.isolation, .readsOldData, .idempotent, .staysSignedIn]),
        (.cleanup, [.cleanupExact, .readsOldData, .idempotent]),
        (.artefactWindow, [.artefactWindow, .readsOldData, .idempotent, .staysSignedIn]),
        (.lockedReads, [.keepsAvailability, .keepsProtection, .staysSignedIn]),
        (.backupRestore, [.survivesRestore]),
        (.reinstallSelf, [.reinstallSweeps, .readsOldData, .idempotent, .staysSignedIn]),
        (.osUpdate, [.readsOldData, .staysSignedIn]),
        (.storagePressure, [.readsOldData, .idempotent, .staysSignedIn]),
        (.passcodeAndBiometry, [.readsOldData, .idempotent, .staysSignedIn]),
        (.backupAfterMigration, [.survivesRestore]),
        (.extensionFirst, [.readsOldData, .staysSignedIn]),
        (.interleavings, [.crashSafe, .staysSignedIn]),
        (.secondDevice, [.readsOldData, .staysSignedIn]),
    ]

    @Test("each scenario checks the conditions of docs/gate.md's table", arguments: scenarioTable)
    func scenarioChecks(scenario: Scenario, conditions: [GateCondition]) {
        #expect(scenario.checks == conditions)
    }

    @Test("the table above lists every scenario")
    func scenarioChecksComplete() {
        #expect(Set(Self.scenarioTable.map(\.0)) == Set(Scenario.allCases))
        #expect(Self.scenarioTable.count == Scenario.allCases.count)
    }

    @Test("docs/gate.md's scenario table, the one table of scenarios, has a row for every scenario and names every condition")
    func docsTable() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../docs/gate.md")
        let text = try String(contentsOf: docs.standardizedFileURL, encoding: .utf8)
        // The words of each row's first cell (`upgrade / skip-version`, `power-loss (opt-in: ...)`).
        let firstCells = text.split(separator: "\n").filter { $0.hasPrefix("| ") }.map { row in
            Set(row.dropFirst(2).prefix { $0 != "|" }.split { !($0.isLetter || $0.isNumber || $0 == "-") }.map(String.init))
        }
        for scenario in Scenario.allCases {
            #expect(firstCells.contains { $0.contains(scenario.rawValue) }, "\(scenario)")
        }
        for condition in GateCondition.allCases {
            #expect(text.contains(condition.rawValue), "\(condition)")
        }
    }

    @Test("the scenario traits: the shape rotation's value-telling scenarios and the opt-in, exploration and fresh-install sets")
    func traits() {
        #expect(
            ShapeRotation.tellsValuesApart == [
                .staleLeftovers, .cleanup, .malformed, .seedVariants, .backupRestore, .backupAfterMigration,
            ])
        #expect(Set(Scenario.allCases.filter(\.isFreshInstall)) == [.freshInstall, .reinstallSelf])
        #expect(Scenario.allCases.filter(\.releaseOnly) == [.reinstallSelf])
        #expect(
            Set(Scenario.allCases.filter(\.changesStateAfterUpgrade))
                == [
                    .relaunch, .reinstall, .markerWithoutData, .isolation, .cleanup, .artefactWindow, .reinstallSelf,
                    .storagePressure, .passcodeAndBiometry,
                ])
    }

    @Test("every condition is checked by some scenario, or by every cell")
    func everyConditionCovered() {
        let covered = Set(Scenario.allCases.flatMap(\.checks) + GateCondition.everywhere)
        #expect(covered == Set(GateCondition.allCases))
    }

    @Test(
        "the default gate runs every scenario but the opt-in power-loss; extension-first and interleavings where the new build declares an extension, second-device where the last hop's first build keeps a synchronizable secret; six are exploration by default"
    )
    func gateDefault() {
        #expect(Scenario.gateDefault == Scenario.allCases.filter { $0 != .powerLoss })
        #expect(Scenario.allCases.filter(\.isOptIn) == [.powerLoss])
        #expect(Scenario.allCases.filter(\.needsExtension) == [.extensionFirst, .interleavings])
        #expect(Scenario.allCases.filter(\.needsSynchronizable) == [.secondDevice])
        #expect(
            Set(Scenario.allCases.filter(\.isExploration)) == [
                .crashPoints, .powerLoss, .writeFailure, .prewarm, .lockedBackground, .interleavings,
            ])
    }

    @Test(
        "combining verdicts fails closed",
        arguments: [
            ([Verdict.pass, .pass], Verdict.pass),
            ([.pass, .unknown], .unknown),
            ([.unknown, .fail, .pass], .fail),
            ([.fail], .fail),
            ([], .unknown),
        ])
    func combine(verdicts: [Verdict], expected: Verdict) {
        #expect(Verdict.combine(verdicts) == expected)
    }

    @Test("verdict exit codes are 0, 1 and 3")
    func exitCodes() {
        #expect(Verdict.allCases.map(\.exitCode) == [0, 1, 3])
    }

    @Test("scenario lists parse and name an unknown id")
    func parseScenarios() throws {
        #expect(try Scenario.parseList("upgrade,relaunch,upgrade") == [.upgrade, .relaunch])
        #expect(
            throws: GateError.invalidValue(
                field: .scenarios, value: "upgrade,upgrades", reason: "names unknown scenario \"upgrades\"")
        ) {
            try Scenario.parseList("upgrade,upgrades")
        }
    }
}

@Suite struct GateEngineTests {
    let cells = [
        GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .readsOldData),
        GateCell(path: .id("v1-to-v2"), scenario: .upgrade, condition: .noSecretInArtifacts),
        GateCell(path: .id("none-to-v2"), scenario: .freshInstall, condition: .idempotent),
    ]

    func pass(_ cell: GateCell) -> GateFinding {
        GateFinding(cell.condition, path: cell.runtimePath, scenario: cell.scenario, verdict: .pass, detail: "ok")
    }

    @Test("every cell passing gives PASS everywhere")
    func allPass() {
        let report = GateEngine.evaluate(expected: cells, findings: cells.map(pass))
        #expect(report.verdict == .pass)
        #expect(report.paths.map(\.verdict) == [.pass, .pass])
        #expect(report.conditions.allSatisfy { $0.verdict == .pass })
        #expect(report.reasons.isEmpty)
        #expect(report.notChecked.contains(.crashSafe))
    }

    @Test("a cell with no finding is UNKNOWN and says why")
    func missingCell() {
        let report = GateEngine.evaluate(expected: cells, findings: cells.dropLast().map(pass))
        #expect(report.verdict == .unknown)
        #expect(report.paths.first { $0.path == "none-to-v2" }?.verdict == .unknown)
        #expect(report.paths.first { $0.path == "v1-to-v2" }?.verdict == .pass)
        #expect(report.reasons == ["none-to-v2/fresh-install/idempotent: \(GateEngine.noFindingReason)"])
    }

    @Test("one FAIL beats UNKNOWN and PASS, and its message is the reason")
    func failWins() {
        var findings = cells.dropLast().map(pass)
        findings.append(
            GateFinding(.readsOldData, path: .id("v1-to-v2"), scenario: .upgrade, item: "session", verdict: .fail, detail: "gone")
        )
        let report = GateEngine.evaluate(expected: cells, findings: findings)
        #expect(report.verdict == .fail)
        #expect(report.conditions.first { $0.condition == .readsOldData }?.failed == 1)
        #expect(report.reasons.first == "v1-to-v2/upgrade/reads-old-data: session: gone")
    }

    @Test("a FAIL for a cell the plan did not expect still fails the gate")
    func unexpectedFail() {
        let stray = GateFinding(
            .isolation, path: .id("v1-to-v2"), scenario: .isolation, verdict: .fail, detail: "read another team's item")
        let report = GateEngine.evaluate(expected: cells, findings: cells.map(pass) + [stray])
        #expect(report.verdict == .fail)
    }

    @Test("a whole-run finding and an incomplete reason count for the overall verdict")
    func runLevel() {
        let leak = GateFinding(
            .noSecretInArtifacts, path: nil, scenario: nil, item: "run.json", verdict: .fail, detail: "holds secret #1")
        #expect(GateEngine.evaluate(expected: cells, findings: cells.map(pass) + [leak]).verdict == .fail)
        let partial = GateEngine.evaluate(expected: cells, findings: cells.map(pass), incomplete: ["shard 2/2 is missing"])
        #expect(partial.verdict == .unknown)
        #expect(partial.reasons == ["shard 2/2 is missing"])
    }

    @Test("no cells and no findings is UNKNOWN, not PASS")
    func empty() {
        #expect(GateEngine.evaluate(expected: [], findings: []).verdict == .unknown)
    }

    @Test("the report does not depend on the order of findings")
    func orderIndependent() {
        let findings =
            cells.map(pass) + [
                GateFinding(.readsOldData, path: .id("v1-to-v2"), scenario: .upgrade, item: "b", verdict: .fail, detail: "x"),
                GateFinding(.readsOldData, path: .id("v1-to-v2"), scenario: .upgrade, item: "a", verdict: .fail, detail: "y"),
            ]
        #expect(
            GateEngine.evaluate(expected: cells, findings: findings)
                == GateEngine.evaluate(expected: cells.reversed(), findings: findings.reversed()))
    }
}
