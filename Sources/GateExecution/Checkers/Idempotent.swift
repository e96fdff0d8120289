import GateModel
/// idempotent: launching the new build again changes nothing, over the snapshots the scenario names
/// (``ScenarioSteps/idempotenceMoments``: fresh-install's second launch, relaunch's two launches
/// after the upgrade, else the final relaunch, `before-final-relaunch` against `after-final-relaunch`).
enum Idempotent: CellChecker {
    static let condition = GateCondition.idempotent

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        let moments = evidence.scenario.steps.idempotenceMoments
        let snapshots = moments.compactMap { evidence.snapshots[$0] }
        guard snapshots.count == moments.count else {
            return [evidence.finding(condition, .unknown, "snapshots missing")]
        }
        for index in 1..<snapshots.count {
            let changes = CellEvidence.differences(snapshots[index - 1], snapshots[index])
            if !changes.isEmpty {
                return [
                    evidence.finding(
                        condition, .fail,
                        "launching again changed the store (\(moments[index].rawValue)): "
                            + changes.joined(separator: "; "))
                ]
            }
        }
        return [evidence.finding(condition, .pass, "\(moments.count - 1) further launch(es) left the store unchanged")]
    }
}
