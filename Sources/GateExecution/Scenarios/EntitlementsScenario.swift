import Entitlements
import Foundation
import GateModel

/// entitlements: no launch after the seed; the build the new one replaces (on a route, the last
/// hop's) and the new build's entitlements are diffed against the items the old build left
/// (entitlements-compatible), and the diff is kept as `entitlements.diff`.
enum EntitlementsSteps: ScenarioSteps {
    static let moments: Set<Moment> = [.afterSeed]

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        guard let previous = cell.previous else { return }
        var counts: [String: Int] = [:]
        for item in try device.keychainItems() { counts[item.accessGroup, default: 0] += 1 }
        let report = try EntitlementsDiffer.diff(old: previous, new: cell.new, itemCounts: counts)
        evidence.facts = .entitlements(EntitlementsFacts(exitCode: report.exitCode, summary: report.summary))
        try ArtifactFile.write(
            Data(QuotedValue.lines(report.text).utf8), to: cell.cellFolder + "/" + ArtifactLayout.entitlementsDiff,
            atomically: true)
    }
}

/// What the entitlements scenario leaves for entitlements-compatible: the diff's exit code (0: the
/// new build reaches every access group that holds the old build's items) and its one-line summary.
struct EntitlementsFacts: Sendable {
    var exitCode: Int32
    var summary: String
}

extension CellEvidence {
    /// The entitlements diff (entitlements cells that got as far).
    var entitlements: EntitlementsFacts? {
        if case .entitlements(let facts) = facts { facts } else { nil }
    }
}
