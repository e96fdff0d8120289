import Foundation
import GateModel

/// artefact-window: the legacy artefacts stay through day 29 of the new build's declared window
/// and are gone after day 31 (artefact-window); the final re-read follows.
enum ArtefactWindowSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread).union([.day29, .day31])

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        evidence.facts = .artefactWindow(ArtefactWindowFacts(days: cell.new.manifest.artefactWindowDays))
        try cell.seed(device, &evidence)
        try cell.upgrade(device, &evidence)
        try device.advanceClock(days: 29)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.day29] = try device.snapshot(cell.new)
        try device.advanceClock(days: 2)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.day31] = try device.snapshot(cell.new)
        try cell.finalReread(device, &evidence)
    }
}

/// What artefact-window judges the day-31 snapshot by: the cleanup window the new build declares
/// (nil: none, so its artefacts may stay).
struct ArtefactWindowFacts: Sendable {
    var days: Int?
}

extension CellEvidence {
    /// The new build's declared cleanup window, in days (artefact-window cells).
    var artefactWindowDays: Int? {
        if case .artefactWindow(let facts) = facts { facts.days } else { nil }
    }
}
