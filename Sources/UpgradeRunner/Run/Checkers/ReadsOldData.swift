import SimRuntime

/// reads-old-data: every secret the old build seeded is still on the device where the new build
/// can reach it (the runner looks for its bytes: ground truth first), and the new build's verify
/// launch reads it back (upgrade, skip-version); after marker-without-data it reports the removed
/// data as missing and does not crash.
enum ReadsOldData: CellChecker {
    static let condition = GateCondition.readsOldData

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if evidence.scenario == .writeFailure {
            return evidence.explorationFindings(condition, counting: [.readsOldData])
        }
        if let problems = evidence.launchProblems(condition) { return problems }
        guard let status = evidence.verifyLaunch?.status else {
            return [evidence.finding(condition, .unknown, "the new build was not launched to verify")]
        }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        let removed = evidence.scenario == .markerWithoutData
        let wanted: ItemResult = removed ? .missing : .found
        var findings: [GateFinding] = []
        let places = evidence.verifyLaunch?.secretPlaces ?? [:]
        for label in evidence.seeded {
            // The device first: a secret that is nowhere the new build can reach is lost, whatever
            // the app reports (honest-status judges the report itself).
            if !removed && places[label, default: []].isEmpty {
                let reported = CellEvidence.item(label, in: status)
                findings.append(
                    evidence.finding(
                        condition, .fail, item: label, operation: reported?.operation, status: reported?.status,
                        "on the device in neither a keychain item the new build can reach nor a legacy store"
                            + (reported.map { " (the verify launch reported it \($0.result) from \($0.location))" } ?? "")))
                continue
            }
            guard let item = CellEvidence.item(label, in: status) else {
                findings.append(evidence.finding(condition, .fail, item: label, "the verify launch does not report this item"))
                continue
            }
            if item.result != wanted {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: label, operation: item.operation, status: item.status,
                        removed
                            ? "reported \(item.result) after its keychain data was removed (expected missing)"
                            : "read back as \(item.result) from \(item.location)"))
            }
        }
        if findings.isEmpty {
            findings.append(
                evidence.finding(
                    condition, .pass,
                    removed
                        ? "the \(evidence.seeded.count) removed items are reported missing; no launch crashed"
                        : "every seeded item (\(evidence.seeded.joined(separator: ", "))) reads back"))
        }
        return findings
    }
}
