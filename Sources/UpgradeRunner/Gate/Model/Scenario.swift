import Foundation

/// A scenario: what happens on one path's fresh device, and the conditions it checks
/// (DESIGN.md's table; the ids are a contract).
public enum Scenario: String, CaseIterable, Codable, Sendable, Comparable, CustomStringConvertible {
    case freshInstall = "fresh-install"
    case upgrade = "upgrade"
    case skipVersion = "skip-version"
    case relaunch = "relaunch"
    case malformed = "malformed"
    case writeFailure = "write-failure"
    case crashPoints = "crash-points"
    case prewarm = "prewarm"
    case lockedBackground = "locked-background"
    case reinstall = "reinstall"
    case markerWithoutData = "marker-without-data"
    case staleLeftovers = "stale-leftovers"
    case entitlements = "entitlements"
    case isolation = "isolation"
    case cleanup = "cleanup"
    case artefactWindow = "artefact-window"
    case lockedReads = "locked-reads"

    /// The scenario's id, as reports print it.
    public var description: String { rawValue }

    /// The conditions this scenario checks, from DESIGN.md's table. Every (path, scenario) cell also
    /// checks ``GateCondition/noSecretInArtifacts`` (the table's "every path" row); ``GatePlan`` adds it.
    public var checks: [GateCondition] {
        switch self {
        case .freshInstall: [.idempotent, .noSecretInArtifacts]
        case .upgrade, .skipVersion: [.readsOldData]
        case .relaunch: [.idempotent]
        case .malformed: [.malformedKeepsOld]
        case .writeFailure: [.crashSafe, .readsOldData]
        case .crashPoints: [.crashSafe]
        case .prewarm, .lockedBackground: [.lockedLaunchSafe]
        case .reinstall: [.reinstallSweeps]
        case .markerWithoutData: [.readsOldData]
        case .staleLeftovers: [.noFalsePass]
        case .entitlements: [.entitlementsCompatible]
        case .isolation: [.isolation]
        case .cleanup: [.cleanupExact]
        case .artefactWindow: [.artefactWindow]
        case .lockedReads: [.keepsAvailability]
        }
    }

    /// Whether the scenario belongs to fault and crash exploration: many attempts, each on its own
    /// device (`--scenarios` can leave them out for a quicker gate).
    public var isExploration: Bool {
        switch self {
        case .crashPoints, .writeFailure, .prewarm, .lockedBackground: true
        default: false
        }
    }

    /// Whether the scenario runs on a fresh install (`none-to-X`) rather than on an upgrade path.
    public var isFreshInstall: Bool { self == .freshInstall }

    /// The scenarios `gate` runs when none are named: every scenario, exploration included.
    public static var gateDefault: [Scenario] { allCases }

    /// Parses a comma-separated list of scenario ids, such as `--scenarios upgrade,relaunch`.
    /// - Throws: ``GateError/invalidValue(flag:value:reason:)`` naming the flag and the unknown id.
    public static func parseList(_ text: String, flag: String = "--scenarios") throws(GateError) -> [Scenario] {
        var result: [Scenario] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let id = word.trimmingCharacters(in: .whitespaces)
            guard let scenario = Scenario(rawValue: id) else {
                throw .invalidValue(flag: flag, value: text, reason: "names unknown scenario \"\(id)\"")
            }
            if !result.contains(scenario) { result.append(scenario) }
        }
        return result
    }

    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// Declaration order, the order of DESIGN.md's table.
    public static func < (lhs: Scenario, rhs: Scenario) -> Bool { lhs.order < rhs.order }
}
