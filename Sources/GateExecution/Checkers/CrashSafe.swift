import GateModel
/// crash-safe: a crash right after any store mutation of the new build's first launch (and a second
/// crash during the recovery), or a failed or lost keychain write, loses no secret: invariants
/// I1–I4 and I6 hold on every attempt.
enum CrashSafe: CellChecker {
    static let condition = GateCondition.crashSafe

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        // In crash-points every failure is a crash-safety failure; in write-failure a failed read
        // after recovery is reads-old-data's (``CellEvidence/reports(_:as:)``).
        evidence.explorationFindings(condition)
    }
}
