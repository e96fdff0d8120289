import GateModel
/// locked-launch-safe: a launch before first unlock (prewarm) or while locked after first unlock
/// (background) loses nothing: it does not take an unreadable store for an empty one, does not
/// delete what it could not read, and once unlocked the data migrates and reads back.
enum LockedLaunchSafe: CellChecker {
    static let condition = GateCondition.lockedLaunchSafe

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        // A secret lost or not read back after the locked launch is this condition's
        // (``CellEvidence/reports(_:as:)``).
        evidence.explorationFindings(condition)
    }
}
