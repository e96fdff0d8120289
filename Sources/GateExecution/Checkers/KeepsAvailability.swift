import GateModel
import SimRuntime

/// keeps-availability: a secret the old build could read in a lock state (unlocked, locked after
/// first unlock, before first unlock) stays readable in it after the upgrade. Judged from the
/// device first: the lock states of the place the old build kept it in (a keychain item's `pdmn`,
/// a file's protection class, preferences after first unlock; seed 000's table) must all be lock
/// states of the place the new build keeps it in. Then by the new build's verify launches while
/// locked after first unlock and before first unlock: a secret that was readable in that state
/// must read back `found`; one that was not is not required. Access control is judged with the
/// class: an item whose access control needs the user (user presence, biometry, the passcode) reads
/// only unlocked and in the foreground, so it fails where the old place read in a background launch.
enum KeepsAvailability: CellChecker {
    static let condition = GateCondition.keepsAvailability

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        let facts = evidence.lockedReads ?? LockedReadsFacts(availability: [])
        let lockedVerifies = evidence.launches(of: evidence.newBuild, .verify).filter { facts.lockStates[$0.index] != nil }
        guard !facts.availability.isEmpty, !lockedVerifies.isEmpty else {
            return [evidence.finding(condition, .unknown, "the scenario did not reach the locked verify launches")]
        }
        var findings: [GateFinding] = []
        for fact in facts.availability {
            guard let old = fact.old else {
                findings.append(
                    evidence.finding(
                        condition, .unknown, item: fact.label, "not found where the old build declares it after the seed"))
                continue
            }
            guard let new = fact.new else {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: fact.label,
                        "was in \(old.description); not found where the new build declares it after the upgrade",
                        key: FindingKey(fact.label, in: .secret, .lost)))
                continue
            }
            // A place readable unlocked without the user is readable in a background launch too; one
            // whose access control needs the user never is (docs/simsecurity.md, row 51).
            if !old.needsUser && old.states.contains(.unlocked) && new.needsUser {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: fact.label,
                        "no longer readable in a background launch (errSecInteractionNotAllowed: no prompt can be shown): "
                            + "the old build kept it in \(old.description), the new build in \(new.description)",
                        key: FindingKey("\(fact.label) background", in: .secret, .lessAvailable)))
            }
            let lost = old.states.subtracting(new.states)
            if !lost.isEmpty {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: fact.label,
                        "no longer readable \(LockAvailability.names(lost)): the old build kept it in \(old.description), "
                            + "the new build in \(new.description)", key: FindingKey(fact.label, in: .secret, .lessAvailable)))
            }
        }
        for launch in lockedVerifies {
            guard let state = facts.lockStates[launch.index], let status = launch.status else { continue }
            for fact in facts.availability where fact.old?.states.contains(state) == true {
                let item = CellEvidence.item(fact.label, in: status)
                guard item?.result != .found else { continue }
                findings.append(
                    evidence.finding(
                        condition, .fail, item: fact.label, operation: item?.operation, status: item?.status,
                        "\(launch.stem) \(LockAvailability.name(state)): read back as \(item?.result.rawValue ?? "unreported"); "
                            + "the old build's \(fact.old?.description ?? "") was readable then",
                        key: FindingKey("\(fact.label) \(LockAvailability.name(state))", in: .secret, .wrongResult)))
            }
        }
        if findings.isEmpty {
            let kept = facts.availability.map { "\($0.label) \(LockAvailability.names($0.old?.states ?? []))" }
            findings.append(
                evidence.finding(
                    condition, .pass,
                    "every secret stays readable where it was: " + kept.joined(separator: "; ")
                        + "; \(lockedVerifies.count) locked verify launches read them back"))
        }
        return findings
    }
}
