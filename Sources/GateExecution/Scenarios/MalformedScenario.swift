import Foundation
import GateModel
import SimDevice
import SimRuntime
import UpgradeContract

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
/// new build's first launch and its verify launch. Secrets the old build keeps in one file (two
/// accounts in one archive, two keys of one plist) are one store: malformed together (the argument
/// once per label) and judged together, since a file cannot be malformed one secret at a time.
/// Names, digests and statuses only.
struct MalformedAttempt: Sendable {
    /// The secrets whose store alone was malformed: one, or those that share its file.
    var labels: [String]
    /// The first of ``labels``, which names the attempt's folder.
    var label: String { labels[0] }
    /// The old build's secrets that the attempt's seed launch reported written.
    var seeded: [String] = []
    /// The device after the seed, and after the new build's first launch.
    var afterSeed: DeviceSnapshot?
    var afterFirstLaunch: DeviceSnapshot?
    var launches: [LaunchRecord] = []
    /// Why the attempt proves nothing (the seed did not malform this store alone, a device error).
    var problem: String?

    /// `authToken alone` (`imapPassword, smtpPassword alone`), as findings name the attempt.
    var id: String { labels.joined(separator: ", ") + " alone" }

    init(labels: [String], seeded: [String] = []) {
        self.labels = labels
        self.seeded = seeded
    }

    init(label: String, seeded: [String] = []) {
        self.init(labels: [label], seeded: seeded)
    }
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
        let keychain = try device.keychainItems()
        let places = SecretLocator(caseID: caseID, labels: seeded, shapes: declarations.shapes).locate(
            on: device.session, app: old, keychain: keychain)
        return declarations.old.secretLabels.filter { seeded.contains($0) && places[$0, default: []].isEmpty }
    }

    /// The malformed matrix: one attempt per store in `labels`, each on its own device; the labels
    /// the old build keeps in one file are one store.
    func malformedMatrix(_ labels: [String]) -> [MalformedAttempt] {
        var groups: [[String]] = []
        var byFile: [String: Int] = [:]
        for label in labels {
            guard let file = declarations.old.secret(label)?.store.file else {
                groups.append([label])
                continue
            }
            if let index = byFile[file] {
                groups[index].append(label)
            } else {
                byFile[file] = groups.count
                groups.append([label])
            }
        }
        return groups.map(malformedAttempt)
    }

    private func malformedAttempt(_ labels: [String]) -> MalformedAttempt {
        var attempt = MalformedAttempt(labels: labels)
        let label = attempt.label
        guard let old else { return attempt }
        do {
            let device = try ScenarioDevice(
                devices: devices, name: "\(unit.pathID)-\(unit.scenario)-\(label)", runtime: runtime,
                cellFolder: cellFolder + "/attempts/" + label, declarations: declarations, timeout: timeout,
                launchCount: launchCount)
            defer {
                attempt.launches = device.launches
                device.finish(keepSnapshotFor: nil)
            }
            try device.install(old)
            let seed = try device.launch(
                old, .seedMalformed, extraArguments: labels.flatMap { [LaunchMode.malformedStoreArgument, $0] })
            attempt.seeded = declarations.seeded(seed.writtenNames)
            let malformed = try malformedStores(device, seeded: attempt.seeded)
            if Set(malformed) != Set(labels) {
                let named = labels.joined(separator: ", ")
                attempt.problem =
                    "the seed with \(LaunchMode.malformedStoreArgument) \(named) malformed "
                    + (malformed.isEmpty ? "nothing" : malformed.joined(separator: ", ")) + ", not \(named) alone"
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

extension DeclaredStore {
    /// The file that holds the store, when a file holds it whole (a property list, an archive, an
    /// app group's file): several secrets there are malformed together. Nil for a preference key
    /// (malformed one key at a time) and a keychain item.
    fileprivate var file: String? {
        switch self {
        case .propertyList(let file, _), .archive(let file, _), .json(let file, _, nil): "container/" + file
        case .appGroupFile(let group, let file), .groupPropertyList(let group, let file, _), .json(let file, _, let group?):
            "group/" + group + "/" + file
        case .preference, .keychain: nil
        }
    }
}
