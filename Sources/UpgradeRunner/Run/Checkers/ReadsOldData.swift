import SimRuntime

/// reads-old-data: the new build's verify launch reads every secret the old build seeded
/// (upgrade, skip-version); after marker-without-data it reports the removed data as missing
/// and does not crash.
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
        for label in evidence.seeded {
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
