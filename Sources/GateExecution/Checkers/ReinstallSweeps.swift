import GateModel
import SimRuntime

/// reinstall-sweeps: what the previous install left in the keychain (iOS keeps it when the app is
/// deleted) after the user deletes the app and installs the new build, judged by the new build's
/// reinstall policy (``ReinstallPolicy``, `keeps` absent: sweeps).
///
/// - **sweeps**: the old session does not come back. The previous install's own items (what its
///   seed wrote) do not survive unchanged, and the verify launch reads none of the case's secrets:
///   either is a FAIL, what the user would see as a resumed session.
/// - **keeps-credentials**: the team keeps the user signed in on purpose. What is kept must be the
///   previous install's own, unchanged (an item of it rewritten in place is a FAIL), and what the
///   app reads must be that install's values (a `mismatch` is a FAIL). Survival is not checked.
///
/// Either way, the items the runner planted before the uninstall (``CellRunner/sweepTargets``) are
/// judged by what the app itself writes (``PlantedItemRule``): a planted item surviving is a FAIL
/// under sweeps only when it is such an item (the class, service and account, or server, port and
/// protocol, and the access group of an item either build declares or the app's launches wrote on
/// the device: its sweep misses its own items); anything else surviving (another SDK's service, a
/// key, a certificate) is hygiene, a warning deciding only under `--strict`, as seed 000 recommends
/// sweeping them without the user seeing them. Each finding says which rule applied and why.
/// Another team's items on the device must stay exactly as they were.
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
        let neighbourGroups = Set(CellRunner.neighbour.accessGroups)
        let appBefore = before.keychain.filter { !neighbourGroups.contains($0.accessGroup) }
        // The previous install's own items are what its seed wrote, and its declared bookkeeping
        // (which a launch after the seed may write: reinstall-self opens the release once more
        // before the uninstall); the rest the runner planted.
        let ownKeys = Set((evidence.snapshots[.afterSeed] ?? before).keychain.map(\.key))
        // What the runner planted, when the cell recorded it; a launch between the seed and the plants
        // (reinstall-self's) wrote the rest, which is the previous install's own too.
        let isPlanted = { (item: DeviceSnapshot.Item) in
            !ownKeys.contains(item.key) && !item.bookkeeping && (evidence.planted?.contains(item.key) ?? true)
        }
        let own = appBefore.filter { !isPlanted($0) }
        let planted = appBefore.filter(isPlanted)
        let keeps = evidence.declarations.keepsCredentials

        var findings =
            keeps
            ? keptUnchanged(evidence, own: own, after: after, status: status)
            : swept(evidence, own: own, after: after, status: status)
        findings += hygiene(evidence, planted: planted, written: own, after: after, sweeps: !keeps)
        findings += neighbours(evidence, before: before, after: after, groups: neighbourGroups)
        if !findings.contains(where: { $0.verdict != .pass || $0.warning == true }) {
            let classes = Set(appBefore.map(\.itemClass)).sorted().joined(separator: ", ")
            let neighbourCount = before.keychain.count { neighbourGroups.contains($0.accessGroup) }
            let note = neighbourCount == 0 ? "" : "; \(neighbourCount) neighbour item(s) untouched"
            let detail =
                keeps
                ? "keeps-credentials (declared): \(after.keychain.count { ownKeys.contains($0.key) }) of the previous"
                    + " install's \(own.count) item(s) kept unchanged; what the app read is that install's own" + note
                : "\(appBefore.count) old item(s) swept (\(classes)); nothing of the old session read" + note
            findings.append(evidence.finding(condition, .pass, detail))
        }
        return findings
    }

    /// Sweeps: the previous install's own items gone (bookkeeping aside) and none of its secrets read.
    private static func swept(
        _ evidence: CellEvidence, own: [DeviceSnapshot.Item], after: DeviceSnapshot, status: LaunchStatus
    ) -> [GateFinding] {
        // Migration markers are bookkeeping that a fresh install writes again, often with the same
        // bytes (the same schema version); the old session is the rest.
        let survivors = Set(own.filter { !$0.bookkeeping }).intersection(after.keychain)
        var findings = survivors.sorted().map { item in
            evidence.finding(
                condition, .fail, item: item.key,
                "the old install's keychain item survived the reinstall"
                    + (item.synchronizable ? " (synchronizable)" : "") + " [\(item.accessible)]",
                key: FindingKey(item.key, in: .keychain, .survived))
        }
        for item in status.items where item.result == .found && evidence.declarations.isSecret(item.name) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.name, operation: item.operation, status: item.status,
                    "the old session's item was read after reinstall",
                    key: FindingKey(item.name, in: .secret, .readAfterReinstall)))
        }
        return findings
    }

    /// Keeps credentials: an own item is either gone or byte-identical, and a secret read is the
    /// previous install's value.
    private static func keptUnchanged(
        _ evidence: CellEvidence, own: [DeviceSnapshot.Item], after: DeviceSnapshot, status: LaunchStatus
    ) -> [GateFinding] {
        let afterByKey = Dictionary(after.keychain.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        var findings = own.filter { !$0.bookkeeping }.sorted().compactMap { item -> GateFinding? in
            guard let kept = afterByKey[item.key], kept.digest != item.digest else { return nil }
            return evidence.finding(
                condition, .fail, item: item.key,
                "the previous install's item was rewritten across the reinstall (keeps-credentials keeps it unchanged)",
                key: FindingKey(item.key, in: .keychain, .rewritten))
        }
        for item in status.items where item.result == .mismatch && evidence.declarations.isSecret(item.name) {
            findings.append(
                evidence.finding(
                    condition, .fail, item: item.name, operation: item.operation, status: item.status,
                    "the app read a value after the reinstall that is not the previous install's",
                    key: FindingKey(item.name, in: .secret, .wrongResult)))
        }
        return findings
    }

    /// The planted items that survived: a FAIL under sweeps for one of what the app writes itself
    /// (``PlantedItemRule``), else a hygiene warning; each says which rule applied and why.
    private static func hygiene(
        _ evidence: CellEvidence, planted: [DeviceSnapshot.Item], written: [DeviceSnapshot.Item], after: DeviceSnapshot,
        sweeps: Bool
    ) -> [GateFinding] {
        // What the app's launches wrote on the device: what the previous install's launches left beside the
        // runner's plants, and what the new build's first launch added after the reinstall.
        let before = Set((evidence.snapshots[.beforeReinstall] ?? evidence.snapshots[.afterSeed])?.keychain.map(\.key) ?? [])
        let written = written + after.keychain.filter { !before.contains($0.key) }
        let rule = PlantedItemRule(declarations: evidence.declarations, written: written)
        return Set(planted).intersection(after.keychain).sorted().map { item in
            let article = "aeiou".contains(item.itemClass.prefix(1)) ? "an" : "a"
            let kind = item.synchronizable ? "a synchronizable \(item.itemClass)" : "\(article) \(item.itemClass)"
            let identity = PlantedItemRule.identity(item)
            if let why = rule.ownership(of: item) {
                guard sweeps else {
                    return evidence.finding(
                        condition, .fail, item: item.key,
                        "hygiene: \(kind) item planted before the reinstall survived it; it is what the app writes"
                            + " (\(identity): \(why)), kept as keeps-credentials (declared) keeps the app's items [\(item.accessible)]",
                        warning: true)
                }
                return evidence.finding(
                    condition, .fail, item: item.key,
                    "\(kind) item planted before the reinstall survived it: it is what the app writes itself (\(identity):"
                        + " \(why)), so the sweep misses the app's own items [\(item.accessible)]",
                    key: FindingKey(item.key, in: .keychain, .survived))
            }
            return evidence.finding(
                condition, .fail, item: item.key,
                "hygiene: \(kind) item planted before the reinstall survived it; the app never writes it (no item either"
                    + " build declares and none its launches wrote is \(identity)), so it decides only under --strict"
                    + " (seed 000 sweeps every class) [\(item.accessible)]", warning: true)
        }
    }

    /// Another team's items exactly as they were.
    private static func neighbours(
        _ evidence: CellEvidence, before: DeviceSnapshot, after: DeviceSnapshot, groups: Set<String>
    ) -> [GateFinding] {
        let neighbourBefore = before.keychain.filter { groups.contains($0.accessGroup) }
        let neighbourAfter = after.keychain.filter { groups.contains($0.accessGroup) }
        guard neighbourBefore.sorted() != neighbourAfter.sorted() else { return [] }
        let changes = Set(neighbourBefore).symmetricDifference(neighbourAfter).map(\.key).sorted()
        return [
            evidence.finding(
                condition, .fail, item: changes.first,
                "another team's keychain items changed across the reinstall: " + changes.joined(separator: ", "),
                key: FindingKey(changes.joined(separator: ", "), in: .neighbour, .changed))
        ]
    }
}
