import GateModel
/// entitlements-compatible: the new build can reach every access group that holds the old build's
/// items (the Entitlements module's diff, with the device's item counts).
enum EntitlementsCompatible: CellChecker {
    static let condition = GateCondition.entitlementsCompatible

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        guard let diff = evidence.entitlements else {
            return [evidence.finding(condition, .unknown, "the entitlements were not compared")]
        }
        return [
            evidence.finding(
                condition, diff.exitCode == 0 ? .pass : .fail, item: ArtifactLayout.entitlementsDiff, diff.summary)
        ]
    }
}
