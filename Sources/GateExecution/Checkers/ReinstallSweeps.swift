import GateModel
import SimRuntime

/// reinstall-sweeps: after uninstalling the old build and installing the new one, the old
/// session does not come back: no item the old install left in the app's access groups survives
/// unchanged (the old build's own, and the runner's synchronizable items, internet password, key
/// and certificate beside them), the verify launch finds none of the case's secrets, and another
/// team's items on the device are left exactly as they were.
enum ReinstallSweeps: CellChecker {
    static let condition = GateCondition.reinstallSweeps

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        guard let before = evidence.snapshots[.beforeReinstall] ?? evidence.snapshots[.afterSeed],
            let after = evidence.snapshots[.afterFirstLaunch],
            let status = evidence.verifyLaunch?.status
        else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the verify launch")]
        }
        var findings: [GateFinding] = []
        let neighbourGroups = Set(CellRunner.neighbour.accessGroups)
        let (neighbourBefore, appBefore) = partition(before.keychain) { neighbourGroups.contains($0.accessGroup) }
        // Migration markers are bookkeeping that a fresh install writes again, often with the same
        // bytes (the same schema version); the old session is the rest.
        let survivors = Set(appBefore.filter { !$0.bookkeeping }).intersection(after.keychain)
        for item in survivors.sorted() {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.key,
                    "the old install's keychain item survived the reinstall"
                        + (item.synchronizable ? " (synchronizable)" : "") + " [\(item.accessible)]"))
        }
        let neighbourAfter = after.keychain.filter { neighbourGroups.contains($0.accessGroup) }
        if neighbourBefore.sorted() != neighbourAfter.sorted() {
            let changes = Set(neighbourBefore).symmetricDifference(neighbourAfter).map(\.key).sorted()
            findings.append(
                evidence.finding(
                    condition, .fail, item: changes.first,
                    "another team's keychain items changed across the reinstall: " + changes.joined(separator: ", ")))
        }
        for item in status.items where item.result == .found && evidence.declarations.isSecret(item.name) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.name, operation: item.operation, status: item.status,
                    "the old session's item was read after reinstall"))
        }
        if findings.isEmpty {
            let classes = Set(appBefore.map(\.itemClass)).sorted().joined(separator: ", ")
            let note = neighbourBefore.isEmpty ? "" : "; \(neighbourBefore.count) neighbour item(s) untouched"
            findings.append(
                evidence.finding(
                    condition, .pass,
                    "\(appBefore.count) old item(s) swept (\(classes)); nothing of the old session read" + note))
        }
        return findings
    }

    private static func partition(
        _ items: [DeviceSnapshot.Item], _ isNeighbour: (DeviceSnapshot.Item) -> Bool
    ) -> ([DeviceSnapshot.Item], [DeviceSnapshot.Item]) {
        (items.filter(isNeighbour), items.filter { !isNeighbour($0) })
    }
}
