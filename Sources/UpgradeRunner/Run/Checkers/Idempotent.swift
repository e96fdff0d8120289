/// idempotent: launching the new build again changes nothing (fresh-install: the second launch;
/// relaunch: the two launches after the upgrade; every other scenario that changes the device after
/// the upgrade: the final relaunch, `before-final-relaunch` against `after-final-relaunch`).
enum Idempotent: CellChecker {
    static let condition = GateCondition.idempotent

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        let moments: [Moment] =
            switch evidence.scenario {
            case .freshInstall: [.afterFirstLaunch, .afterSecondLaunch]
            case .relaunch: [.afterFirstLaunch, .afterRelaunch1, .afterRelaunch2]
            default: [.beforeFinalRelaunch, .afterFinalRelaunch]
            }
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
