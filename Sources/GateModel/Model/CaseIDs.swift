/// The cases a run seeds besides its own: their ids derive from the run's case id, so that the leak
/// scan looks for their secrets too. The one place that spells them.
package enum ExtraCase: String, CaseIterable, Sendable {
    /// stale-leftovers: what an interrupted earlier install left behind.
    case interrupted
    /// cleanup: another test's data, which the test's own cleanup must leave alone.
    case other

    /// This case's id in a run of `caseID` (`<caseID>-interrupted`).
    package func id(of caseID: String) -> String { caseID + "-" + rawValue }

    /// The run's own case id, then every extra case's, in the order the leak scan numbers their secrets.
    package static func allIDs(of caseID: String) -> [String] { [caseID] + allCases.map { $0.id(of: caseID) } }
}
