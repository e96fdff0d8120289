import GateModel
import Testing
import UpgradeContract

/// A narrowed run whose every scenario would seed a label `empty` turns the rotation one step (#37):
/// the run seeds bytes that could leak, and its no-secret-in-artifacts is judged.
@Suite struct ShapeRotationTests {
    static let allowed = SecretShape.allCases

    /// A case id whose rotation seeds `label` empty in an upgrade cell.
    static func caseSeedingEmpty(label: String) throws -> String {
        try #require(
            (0..<500).map { "case-\($0)" }.first {
                ShapeRotation.shape(caseID: $0, label: label, scenario: .upgrade, allowed: allowed) == .empty
            })
    }

    @Test("a run of only upgrade cells that would seed a label empty seeds it with bytes")
    func narrowedRunTurns() throws {
        let caseID = try Self.caseSeedingEmpty(label: "authToken")
        let shape = ShapeRotation.shape(
            caseID: caseID, label: "authToken", scenario: .upgrade, allowed: Self.allowed, runScenarios: [.upgrade])
        #expect(shape != .empty)
        // The same in every cell of the run: the baseline (the old build in the new one's place) meets the same input.
        #expect(
            shape
                == ShapeRotation.shape(
                    caseID: caseID, label: "authToken", scenario: .upgrade, allowed: Self.allowed, runScenarios: [.upgrade]))
    }

    @Test("a run with a scenario that tells values apart, or another that seeds bytes, keeps the rotation")
    func otherRunsKeep() throws {
        let caseID = try Self.caseSeedingEmpty(label: "authToken")
        for run: [Scenario] in [Scenario.gateDefault, [.upgrade, .malformed], Scenario.allCases] {
            #expect(
                ShapeRotation.shape(
                    caseID: caseID, label: "authToken", scenario: .upgrade, allowed: Self.allowed, runScenarios: run)
                    == .empty, "\(run)")
        }
        // Two scenarios of which one seeds bytes: nothing to turn.
        let other = try #require(
            Scenario.allCases.first {
                !ShapeRotation.tellsValuesApart.contains($0)
                    && ShapeRotation.shape(caseID: caseID, label: "authToken", scenario: $0, allowed: Self.allowed) != .empty
            })
        #expect(
            ShapeRotation.shape(
                caseID: caseID, label: "authToken", scenario: .upgrade, allowed: Self.allowed, runScenarios: [.upgrade, other])
                == .empty)
    }

    @Test("a label whose stores hold only empty stays empty: nothing else fits")
    func onlyEmpty() {
        #expect(
            ShapeRotation.shape(caseID: "c", label: "x", scenario: .upgrade, allowed: [.empty], runScenarios: [.upgrade])
                == .empty)
    }
}
