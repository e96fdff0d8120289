import Foundation
import GateModel
import SimDevice
import SimRuntime

/// reinstall-self: the release under test over its own install. It is installed on an empty device,
/// seeds the case through its own write path, and is opened once more (the user stays signed in:
/// stays-signed-in); then, with the runner's sweep targets and another team's items added as in
/// reinstall, the user deletes it and installs the same build again. Its first launch must sweep
/// what its own install left, or keep it as its declared reinstall policy says (reinstall-sweeps),
/// and the final re-read follows (its secrets read as missing, or as the policy keeps them).
///
/// reinstall installs the new build over an older one, so a sweep that recognises only what an
/// older release wrote passes there; here the install it must recognise is its own.
enum ReinstallSelfSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread).union([.beforeReinstall])
    static let removal: (wanted: ItemResult, when: String)? = (.missing, "after the reinstall")

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        let release = cell.new
        try cell.seed(device, &evidence)
        // The user opens the release again, before deleting it: still signed in.
        try device.launch(release, .launch)
        try cell.addSweepTargets(device, &evidence)
        try cell.addNeighbourItems(device)
        evidence.snapshots[.beforeReinstall] = try device.snapshot(release)
        try device.uninstall(release)
        try device.install(release)
        evidence.facts = .reinstallSelf(ReinstallSelfFacts(firstAfterReinstall: device.launches.count + 1))
        try device.launch(release, .launch)
        evidence.snapshots[.afterFirstLaunch] = try device.snapshot(release)
        try device.launch(release, .verify)
        try cell.finalReread(device, &evidence)
    }
}

/// Where reinstall-self's reinstall falls among the cell's launches.
struct ReinstallSelfFacts: Sendable {
    /// The index (``LaunchRecord/index``) of the first launch after the reinstall; the launches
    /// before it are the release's own install (its seed and its launch after it).
    var firstAfterReinstall: Int
}

extension CellEvidence {
    /// reinstall-self's facts, or nil in another scenario's cell.
    var reinstallSelf: ReinstallSelfFacts? {
        if case .reinstallSelf(let facts) = facts { facts } else { nil }
    }
}

extension Scenario {
    /// Whether the scenario uninstalls the app and installs it again (reinstall, reinstall-self):
    /// what a verify launch after it must read is the reinstall policy's (``CaseDeclarations/keptAcrossReinstall(_:)``).
    var reinstalls: Bool { self == .reinstall || self == .reinstallSelf }
}
