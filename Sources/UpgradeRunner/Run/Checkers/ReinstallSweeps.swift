import SimRuntime

/// reinstall-sweeps: after uninstalling the old build and installing the new one, the old
/// session does not come back: no item the old build left survives unchanged and the verify
/// launch finds none of the case's secrets.
enum ReinstallSweeps: CellChecker {
    static let condition = GateCondition.reinstallSweeps

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        guard let before = evidence.snapshots["after-seed"], let after = evidence.snapshots["after-first-launch"],
            let status = evidence.verifyLaunch?.status
        else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the verify launch")]
        }
        var findings: [GateFinding] = []
        // Migration markers are bookkeeping that a fresh install writes again, often with the same
        // bytes (the same schema version); the old session is the rest.
        let survivors = Set(before.keychain.filter { !$0.bookkeeping }).intersection(after.keychain)
        for item in survivors.sorted() {
            findings.append(
                evidence.finding(condition, .fail, item: item.key, "the old install's keychain item survived the reinstall"))
        }
        for item in status.items where item.result == .found && evidence.declarations.isSecret(item.name) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.name, operation: item.operation, status: item.status,
                    "the old session's item was read after reinstall"))
        }
        if findings.isEmpty {
            findings.append(
                evidence.finding(condition, .pass, "\(before.keychain.count) old item(s) swept; nothing of the old session read"))
        }
        return findings
    }
}
