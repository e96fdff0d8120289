import Foundation
import GateModel
import SimDevice
import SimRuntime

/// malformed: the old build seeds every legacy store malformed at once, the new build migrates and
/// verifies; then the matrix: for each store the seed malforms, an attempt on its own device with
/// that store alone malformed and the others valid (malformed-keeps-old, judged per store).
enum MalformedSteps: ScenarioSteps {
    static let moments = Moment.upgraded

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        // Which stores the seed malformed is read before a route's hops move anything.
        try cell.seed(device, &evidence, mode: .seedMalformed, hops: false)
        let stores = try cell.malformedStores(device, seeded: evidence.seeded)
        if !cell.via.isEmpty {
            try cell.hop(device)
            evidence.snapshots[.afterSeed] = try device.snapshot(cell.previous ?? cell.new)
        }
        try cell.upgrade(device, &evidence)
        try device.launch(cell.new, .verify)
        evidence.facts = .malformed(cell.malformedMatrix(stores))
    }
}

/// One attempt of the malformed matrix: on its own device, the old build seeded with the store of
/// one secret alone malformed (`-UITestSeedMalformedStore <label>`) and the others valid, then the
/// new build's first launch and its verify launch. Names, digests and statuses only.
struct MalformedAttempt: Sendable {
    /// The secret whose store alone was malformed.
    var label: String
    /// The old build's secrets that the attempt's seed launch reported written.
    var seeded: [String] = []
    /// The device after the seed, and after the new build's first launch.
    var afterSeed: DeviceSnapshot?
    var afterFirstLaunch: DeviceSnapshot?
    var launches: [LaunchRecord] = []
    /// Why the attempt proves nothing (the seed did not malform this store alone, a device error).
    var problem: String?

    /// `authToken alone`, as findings name the attempt.
    var id: String { "\(label) alone" }
}

extension CellEvidence {
    /// The malformed matrix's attempts (malformed cells that got as far).
    var malformedAttempts: [MalformedAttempt] {
        if case .malformed(let attempts) = facts { attempts } else { [] }
    }
}

extension CellRunner {
    /// The stores the old build's malformed seed did malform: the seeded secrets whose value is
    /// nowhere on the device after it (a store the seed leaves valid keeps the case's value).
    func malformedStores(_ device: ScenarioDevice, seeded: [String]) throws -> [String] {
        guard let old else { return [] }
        let places = try SecretLocator(caseID: caseID, labels: seeded).locate(on: device.device, app: old)
        return declarations.old.secretLabels.filter { seeded.contains($0) && places[$0, default: []].isEmpty }
    }

    /// The malformed matrix: one attempt per store in `labels`, each on its own device.
    func malformedMatrix(_ labels: [String]) -> [MalformedAttempt] {
        labels.map(malformedAttempt)
    }

    private func malformedAttempt(_ label: String) -> MalformedAttempt {
        var attempt = MalformedAttempt(label: label)
        guard let old else { return attempt }
        do {
            let device = try ScenarioDevice(
                devices: devices, name: "\(unit.pathID)-\(unit.scenario)-\(label)", runtime: runtime,
                cellFolder: cellFolder + "/attempts/" + label, declarations: declarations, timeout: timeout)
            defer {
                attempt.launches = device.launches
                device.finish(keepSnapshotFor: nil)
            }
            try device.install(old)
            let seed = try device.launch(
                old, .seedMalformed, extraArguments: [LaunchMode.malformedStoreArgument, label])
            attempt.seeded = declarations.seeded(seed.writtenNames)
            let malformed = try malformedStores(device, seeded: attempt.seeded)
            if malformed != [label] {
                attempt.problem =
                    "the seed with \(LaunchMode.malformedStoreArgument) \(label) malformed "
                    + (malformed.isEmpty ? "nothing" : malformed.joined(separator: ", ")) + ", not \(label) alone"
            }
            // On a route, the hops as the cell's own device took them; the device the last build meets.
            try hop(device)
            attempt.afterSeed = try device.snapshot(previous ?? old)
            try device.install(new)
            try device.launch(new, .launch)
            attempt.afterFirstLaunch = try device.snapshot(new)
            try device.launch(new, .verify)
        } catch {
            attempt.problem = "the attempt stopped: \(error)"
        }
        if LaunchedProcesses.isStopped { attempt.problem = Self.interrupted }
        return attempt
    }
}
