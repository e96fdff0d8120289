import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// The exploration scenarios: crash points (and pairs), injected write failures, and launches
/// while locked or before first unlock. Each attempt runs on its own fresh device, prepared as the
/// upgrade path prepares it (old build installed and seeded, a route's intermediate builds
/// installed and launched in turn, new build installed in place: the faults, crash points and
/// locked launches apply to the first launch of the last build, after the last hop).
///
/// The explorer only records: each attempt's launches and what the device held at its checkpoints
/// go into an ``AttemptRecord``, which ``ExplorationInvariants`` judges (I1-I6 of docs/architecture.md, the
/// verify after recovery, honest-status). It decides only what to do next: an attempt stops when a
/// launch it needed left no status file, and one that reached an explored state is not relaunched.
struct Explorer {
    let cell: CellRunner
    let old: Build
    let new: Build

    /// A locked launch that no unlock will follow does not wait for protected data: it defers at
    /// once (timeout 0), as an app that registers for the "did become available" notification and
    /// moves on. Waiting out a real timeout would only cost wall time for the same outcome.
    static let shortWait = ["-UITestProtectedDataTimeout", "0"]

    var locator: SecretLocator { cell.declarations.locator }

    // MARK: Preparing and checking

    /// The prepared state every attempt starts from: a device with the old build installed and
    /// seeded, a route's hops launched, and the new build installed in place, made once per
    /// scenario and cloned per attempt.
    final class Template {
        var device: ScenarioDevice?
        var seeded: [String] = []
        /// What the old build's startup read found at its seed, and how a finding names that read
        /// (``StaysSignedIn/baseline(seed:seeded:)``).
        var signedIn: (labels: Set<String>, source: String)?
        var problem: String?
        /// Whether an attempt has carried the seed launch's honest-status problems (the first does).
        var seedJudged = false
        /// The launches made from this template, its own seed launch included.
        var launches = 0
        /// The devices kept right after each first crash (crash points), for that crash point's pairs.
        var afterCrash: [Int: ScenarioDevice] = [:]
        /// Where each seeded secret was right after mutation k of the new build's first launch, as
        /// the attempt that crashed there read it (crash-points; for the timelines).
        var placesAfterMutation: [Int: [String: SecretLocator.Place]] = [:]
        /// Each crash attempt's places right after its crash, by attempt id (an attempt covered by it has the same).
        var placesAfterCrash: [String: [String: SecretLocator.Place]] = [:]
        /// What the old release's extension read at its own startup before the upgrade (interleavings).
        var extensionSignedIn: (labels: Set<String>, source: String)?
        deinit {
            device?.finish(keepSnapshotFor: nil)
            for kept in afterCrash.values { kept.finish(keepSnapshotFor: nil) }
        }
    }

    /// `beforeUpgrade`: what runs on the prepared device after the seed and the hops, before the new
    /// build is installed (interleavings launches the old release's extension there).
    func template(beforeUpgrade: ((ScenarioDevice, Template) throws -> Void)? = nil) -> Template {
        let template = Template()
        do {
            let device = try ScenarioDevice(
                devices: cell.devices, name: "\(cell.unit.pathID)-\(cell.unit.scenario)-template",
                runtime: cell.runtime, cellFolder: cell.cellFolder + "/attempts/template",
                declarations: cell.declarations, timeout: cell.timeout, launchCount: cell.launchCount)
            template.device = device
            try device.install(old)
            let seed = try device.launch(old, .seed)
            template.launches += 1
            template.seeded = cell.declarations.seeded(seed.writtenNames)
            template.signedIn = StaysSignedIn.baseline(seed: seed, seeded: template.seeded)
            try cell.hop(device)
            try beforeUpgrade?(device, template)
            try device.install(new)
        } catch {
            template.problem = "cannot prepare the device: \(error)"
        }
        return template
    }

    /// A copy of the prepared device (or of `source`, a device an earlier attempt left right after
    /// its crash, whose launch numbering it continues) for one attempt.
    func prepared(_ id: String, from template: Template, source: ScenarioDevice? = nil) throws -> ScenarioDevice {
        guard let origin = source ?? template.device, template.problem == nil else {
            throw DeviceError.fileSystem(cell.cellFolder, reason: template.problem ?? "no prepared device")
        }
        let folder = cell.cellFolder + "/attempts/" + id.replacingOccurrences(of: " ", with: "-")
        return try ScenarioDevice(
            cloning: origin, devices: cell.devices, name: "\(cell.unit.pathID)-\(id)",
            cellFolder: folder, continuingNumbering: source != nil)
    }

    /// I1's checkpoint: where every seeded secret is now (`crashed`: the launch a planned crash just ended).
    /// `keychain`: the device's items, when the caller has just read them for another check of this state.
    func locate(
        _ device: ScenarioDevice, when: String, _ record: inout AttemptRecord, crashed: LaunchRecord? = nil,
        keychain: [KeychainItemRecord]? = nil
    ) throws {
        let places = locator.locate(on: device.session, app: new, keychain: try keychain ?? device.keychainItems())
        record.record(.located(places, when: when, crashed: crashed))
    }

    /// Claims the state `device` is in (its fingerprint, from the `keychain` just read) for `record`
    /// and returns true, or records the attempt as covered by the one that reached that state first
    /// (``ExplorationAttempt/coveredBy``) and returns false: the rest would be that attempt's launches again.
    func claim(
        _ device: ScenarioDevice, keychain: [KeychainItemRecord], explored: inout [String: String],
        _ record: inout AttemptRecord
    ) throws -> Bool {
        let state = try device.stateFingerprint(keychain: keychain)
        if let owner = explored[state] {
            record.coveredBy = owner
            return false
        }
        explored[state] = record.id
        return true
    }

    /// After recovery, what I1, I2, I4, the verify and I3 are judged on: where the secrets are, the
    /// new build's keychain items, the store around another launch, the verify launch, and where the
    /// secrets are at the end.
    /// `judgeRecoverySignIn`: false when the caller has judged the recovery launch's startup read
    /// already (interleavings judges each schedule's own launches before it deduplicates).
    func recovered(
        _ device: ScenarioDevice, recovery: LaunchRecord, _ record: inout AttemptRecord, judgeRecoverySignIn: Bool = true
    ) throws {
        // One read of the keychain serves the three checks of this state.
        let keychain = try device.keychainItems()
        try locate(device, when: "after recovery", &record, keychain: keychain)
        let items = keychain.filter { new.identity.accessGroups.contains($0.accessGroup) }
        record.record(.itemsAfterRecovery(items, recovery: recovery))
        let before = try device.snapshot(new, keychain: keychain)
        let again = try device.launch(new, .launch)
        if record.needs(again) { record.record(.relaunched(before: before, after: try device.snapshot(new))) }
        let verify = try device.launch(new, .verify)
        guard record.needs(verify, for: .readsOldData) else { return }
        record.record(.verified(verify))
        // What the user sees after the recovery: each launch's startup read against the old build's.
        if let baseline = record.signedIn, !baseline.labels.isEmpty {
            let launches = judgeRecoverySignIn ? [recovery, again, verify] : [again, verify]
            record.record(.signedIn(launches, baseline: baseline.labels, source: baseline.source))
        }
        let migration = again.status?.migration?.state ?? recovery.status?.migration?.state
        // Where the secrets are right after the verify: the verify launch's own read of the device
        // (``LaunchRecord/secretPlaces``, the same locator on the same state), not a second one.
        record.record(.settled(verify.secretPlaces ?? [:], migration: migration))
    }

    /// Runs `body` on a prepared device, records what it did and saw, and returns the attempt as
    /// ``ExplorationInvariants`` judges it (the device of an attempt that is not ok is kept for the reader).
    func attempt(
        _ id: String, _ template: Template, from source: ScenarioDevice? = nil,
        _ body: (ScenarioDevice, inout AttemptRecord) throws -> Void
    ) -> ExplorationAttempt {
        var record = AttemptRecord(id: id)
        var device: ScenarioDevice?
        do {
            let prepared = try prepared(id, from: template, source: source)
            device = prepared
            record.seeded = template.seeded
            record.signedIn = template.signedIn
            try body(prepared, &record)
            // honest-status of every launch: the shared seed's once (in the first attempt), then the attempt's own.
            let seedLaunches = template.seedJudged ? [] : template.device?.launches ?? []
            template.seedJudged = true
            record.launches = seedLaunches + prepared.launches
        } catch {
            record.stopped = "\(error)"
        }
        if LaunchedProcesses.isStopped { record.interrupted = true }
        var judged = ExplorationInvariants.judge(
            record, in: CellContext(unit: cell.unit, declarations: cell.declarations))
        // Kept for one that failed, and for one covered by another attempt (it inherits that one's
        // outcome once every attempt has run: ``ExplorationAttempt/inheritCoverage(_:)``).
        if (judged.outcome != .ok || record.coveredBy != nil) && !record.interrupted {
            judged.timeline = TimelineBuilder.attempt(
                record, launches: device?.launches ?? [], labels: locator.labels,
                placesAfterMutation: source == nil ? template.placesAfterMutation : [:])
        }
        if let device {
            template.launches += device.launches.count
            // --keep-failed: the attempt's device, and a copy of the one it started from.
            var keep: (kept: KeptDevices, cell: String, attempt: String?, before: Device?)?
            if let kept = cell.kept, judged.outcome != .ok, !record.interrupted, let origin = source ?? template.device {
                let before = kept.copy(origin.device, as: KeptDevices.name(cell: cell.unit.description, attempt: id) + "-before")
                keep = (kept, cell.unit.description, id, before)
            }
            device.finish(keepSnapshotFor: judged.outcome == .ok ? nil : new, keep: keep)
        }
        return judged
    }
}

/// What an exploration scenario (crash-points, write-failure, prewarm, locked-background) leaves
/// for its checkers: every attempt as ``ExplorationInvariants`` judged it when it ended (the one
/// judgment; the checkers only report it, ``CellEvidence/explorationFindings(_:)``), and what the
/// exploration covered.
struct ExplorationFacts: Sendable {
    var attempts: [ExplorationAttempt]
    /// Counts, and the sample size where pairs were sampled.
    var note: String
}

extension CellEvidence {
    /// The exploration's attempts (exploration cells that got as far).
    var exploration: ExplorationFacts? {
        if case .exploration(let facts) = facts { facts } else { nil }
    }
}
