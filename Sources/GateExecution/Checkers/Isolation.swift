import GateModel
/// isolation: another team's app's items on the same device are neither changed nor removed by
/// the path (seed, upgrade, verify, cleanup).
enum Isolation: CellChecker {
    static let condition = GateCondition.isolation

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        guard let before = evidence.snapshots[.neighbourBefore], let after = evidence.snapshots[.neighbourAfter] else {
            return [evidence.finding(condition, .unknown, "the scenario did not finish")]
        }
        let team = CellRunner.neighbour.teamIdentifier ?? ""
        let mine = { (snapshot: DeviceSnapshot) in snapshot.keychain.filter { $0.accessGroup.hasPrefix(team + ".") } }
        let (old, new) = (mine(before), mine(after))
        guard !old.isEmpty else { return [evidence.finding(condition, .unknown, "no neighbour items were placed")] }
        if old != new {
            let changed = Set(old).symmetricDifference(new).map(\.key).sorted()
            return [
                evidence.finding(
                    condition, .fail, item: changed.first,
                    "another team's items changed: "
                        + changed.joined(separator: ", "),
                    key: FindingKey(changed.joined(separator: ", "), in: .neighbour, .changed))
            ]
        }
        return [evidence.finding(condition, .pass, "\(old.count) item(s) of \(team) untouched")]
    }
}
