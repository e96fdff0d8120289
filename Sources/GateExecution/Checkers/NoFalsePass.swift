import GateModel
import SimRuntime

/// no-false-pass: items an earlier, interrupted case left on the device do not make this case's
/// verify launch pass.
enum NoFalsePass: CellChecker {
    static let condition = GateCondition.noFalsePass

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        guard let status = evidence.verifyLaunch?.status else {
            return [evidence.finding(condition, .unknown, "the new build was not launched to verify")]
        }
        // This case seeded nothing: any of its secrets reported found was read from another case's data.
        let found = status.items.filter { $0.result == .found && evidence.declarations.isSecret($0.name) }
        if !found.isEmpty {
            return found.map { item in
                evidence.finding(
                    condition, .fail, item: item.name, operation: item.operation, status: item.status,
                    "reported found, though this case seeded nothing: an earlier case's data was taken for this case's")
            }
        }
        if status.caseID != evidence.caseID {
            return [evidence.finding(condition, .fail, "the verify launch reported case \(status.caseID), not this case")]
        }
        return [evidence.finding(condition, .pass, "leftovers of an earlier case were not taken for this case's data")]
    }
}
