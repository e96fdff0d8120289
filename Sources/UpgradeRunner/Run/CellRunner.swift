import Entitlements
import Foundation
import SimDevice
import SimRuntime
import SimSecurity

/// Runs one (path, scenario) cell on its own fresh device and judges it.
///
/// Every cell starts from an empty device with a fixed clock, installs the old build, seeds the
/// case, then does what its scenario says (DESIGN.md's table). On a multi-hop route
/// (`v1-to-v2-to-v3`) each intermediate build is installed in place after the seed and launched
/// twice, as a user would open it (``hop(_:)``); it seeds nothing, and the scenario's steps then run
/// against the last build, judged against what the first build seeded.
///
/// Every scenario that changes the device after the upgrade (relaunch, reinstall, marker-without-data,
/// isolation, cleanup, artefact-window) ends with ``finalReread(_:_:)``: a relaunch judged by
/// idempotent and a verify launch judged by reads-old-data. A launch that crashes, hangs or
/// leaves no status file fails the conditions that needed it; a device error aborts the cell and
/// leaves its conditions UNKNOWN, never PASS.
struct CellRunner {
    let unit: PlanUnit
    let old: Build?
    /// The route's intermediate builds, in order (empty on a two-build path).
    let via: [Build]
    let new: Build
    let runtime: RuntimeVersion
    let caseID: String
    let devices: DeviceSet
    let outFolder: String
    let timeout: Double

    var cellFolder: String { outFolder + "/" + unit.folder }

    /// What the cell's builds keep where, for this case (resolved once, read by every step).
    let declarations: CaseDeclarations

    init(
        unit: PlanUnit, old: Build?, via: [Build] = [], new: Build, runtime: RuntimeVersion, caseID: String,
        devices: DeviceSet, outFolder: String, timeout: Double
    ) {
        self.unit = unit
        self.old = old
        self.via = via
        self.new = new
        self.runtime = runtime
        self.caseID = caseID
        self.devices = devices
        self.outFolder = outFolder
        self.timeout = timeout
        declarations = CaseDeclarations(old: old, new: new, caseID: caseID)
    }

    /// The reason of every cell and attempt that the runner's interruption cut short.
    static let interrupted = "the runner was interrupted (SIGINT or SIGTERM) before the cell finished"

    /// Runs the scenario, judges it, and returns the evidence and the findings.
    func run() -> (evidence: CellEvidence, findings: [GateFinding]) {
        var evidence = CellEvidence(unit: unit, runtime: runtime, caseID: caseID)
        evidence.declarations = declarations
        evidence.artefactWindowDays = new.manifest.artefactWindowDays
        let device: ScenarioDevice
        do {
            device = try ScenarioDevice(
                devices: devices, name: "\(unit.pathID)-\(unit.scenario)", runtime: runtime,
                cellFolder: cellFolder, declarations: declarations, timeout: timeout)
        } catch {
            evidence.aborted = "cannot prepare a device: \(error)"
            return (evidence, CellJudge.judge(evidence))
        }
        do {
            try script(device, &evidence)
        } catch {
            evidence.aborted = "the scenario stopped: \(error)"
        }
        // A cell the interrupt cut short proves nothing either way, whatever its launches showed.
        if LaunchedProcesses.isStopped { evidence.aborted = Self.interrupted }
        evidence.launches = device.launches
        let findings = CellJudge.judge(evidence)
        device.finish(keepSnapshotFor: findings.contains { $0.verdict != .pass } ? new : nil)
        return (evidence, findings)
    }

    func seed(
        _ device: ScenarioDevice, _ evidence: inout CellEvidence, mode: LaunchMode = .seed,
        caseID: String? = nil, hops: Bool = true
    ) throws {
        guard let old else { return }
        try device.install(old)
        let record = try device.launch(old, mode, caseID: caseID)
        evidence.seeded = declarations.seeded(record.writtenNames)
        if hops { try hop(device) }
        evidence.snapshots[.afterSeed] = try device.snapshot(previous ?? old)
    }

    /// The build the last hop starts from: the last intermediate build, else the old build.
    var previous: Build? { via.last ?? old }

    /// A route's intermediate hops: each build installed in place and launched twice with a plain
    /// launch, as a user opens a release (the first launch migrates, the second meets the settled
    /// store); nothing is seeded and nothing is judged here. The device is then as the route's
    /// earlier builds left it, which is what `after-seed` records and the last build meets.
    func hop(_ device: ScenarioDevice) throws {
        for build in via {
            try device.install(build)
            try device.launch(build, .launch)
            try device.launch(build, .launch)
        }
    }

    /// The end of every scenario that changes the device after the upgrade: the store as the
    /// scenario left it (`before-final-relaunch`), one more plain launch (`after-final-relaunch`;
    /// idempotent: it changes nothing), then a verify launch that re-reads every declared secret
    /// (reads-old-data: found where the data is kept; missing where the scenario's point is removal,
    /// see ``ReadsOldData``).
    private func finalReread(_ device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        evidence.snapshots[.beforeFinalRelaunch] = try device.snapshot(new)
        try device.launch(new, .launch)
        evidence.snapshots[.afterFinalRelaunch] = try device.snapshot(new)
        try device.launch(new, .verify)
    }

    func upgrade(_ device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try device.install(new)
        try device.launch(new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try device.snapshot(new)
    }

    private func script(_ device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        switch unit.scenario {
        case .freshInstall:
            try device.install(new)
            try device.launch(new, .launch)
            evidence.snapshots[.afterFirstLaunch] = try device.snapshot(new)
            try device.launch(new, .launch)
            evidence.snapshots[.afterSecondLaunch] = try device.snapshot(new)
        case .upgrade, .skipVersion:
            try seed(device, &evidence)
            try upgrade(device, &evidence)
            let verify = try device.launch(new, .verify)
            evidence.clockShift = try verifyWithClockShifted(device, after: verify)
        case .relaunch:
            try seed(device, &evidence)
            try upgrade(device, &evidence)
            try device.launch(new, .launch)
            evidence.snapshots[.afterRelaunch1] = try device.snapshot(new)
            try device.launch(new, .launch)
            evidence.snapshots[.afterRelaunch2] = try device.snapshot(new)
            // Its relaunches are the idempotent check; the final re-read follows them.
            try device.launch(new, .verify)
        case .malformed:
            // Every store malformed at once, then the matrix: each store the seed malforms, alone.
            // Which stores the seed malformed is read before a route's hops move anything.
            try seed(device, &evidence, mode: .seedMalformed, hops: false)
            let stores = try malformedStores(device, seeded: evidence.seeded)
            if !via.isEmpty {
                try hop(device)
                evidence.snapshots[.afterSeed] = try device.snapshot(previous ?? new)
            }
            try upgrade(device, &evidence)
            try device.launch(new, .verify)
            evidence.malformedAttempts = malformedMatrix(stores)
        case .reinstall:
            try seed(device, &evidence)
            try addSweepTargets(device)
            try addNeighbourItems(device)
            evidence.snapshots[.beforeReinstall] = try device.snapshot(previous ?? new)
            if let previous { try device.uninstall(previous) }
            try device.install(new)
            try device.launch(new, .launch)
            evidence.snapshots[.afterFirstLaunch] = try device.snapshot(new)
            try device.launch(new, .verify)
            try finalReread(device, &evidence)
        case .markerWithoutData:
            try seed(device, &evidence)
            try upgrade(device, &evidence)
            try removeDataKeepingMarkers(device)
            evidence.snapshots[.afterDataRemoved] = try device.snapshot(new)
            try device.launch(new, .launch)
            try device.launch(new, .verify)
            try finalReread(device, &evidence)
        case .staleLeftovers:
            // An earlier case, interrupted after seeding, left its data; this case seeds nothing.
            try seed(device, &evidence, caseID: caseID + "-interrupted")
            evidence.seeded = []
            try upgrade(device, &evidence)
            try device.launch(new, .verify)
        case .entitlements:
            try seed(device, &evidence)
            try diffEntitlements(device, &evidence)
        case .isolation:
            try addNeighbourItems(device)
            evidence.snapshots[.neighbourBefore] = try device.snapshot(old ?? new)
            try seed(device, &evidence)
            try upgrade(device, &evidence)
            try device.launch(new, .verify)
            try device.launch(new, .cleanup)
            // The app's own launch after the test's cleanup (it may write its markers again), then
            // the final re-read: the case's secrets read as missing, the neighbour's items untouched.
            try device.launch(new, .launch)
            try finalReread(device, &evidence)
            evidence.snapshots[.neighbourAfter] = try device.snapshot(new)
        case .cleanup:
            try addNeighbourItems(device)
            // Another case's data, seeded by the first build; the route's hops come after this case's seed.
            try seed(device, &evidence, caseID: caseID + "-other", hops: false)
            evidence.snapshots[.beforeCase] = try device.snapshot(old ?? new)
            try seed(device, &evidence)
            try upgrade(device, &evidence)
            try device.launch(new, .verify)
            evidence.snapshots[.beforeCleanup] = try device.snapshot(new)
            try device.launch(new, .cleanup)
            evidence.snapshots[.afterCleanup] = try device.snapshot(new)
            try device.launch(new, .launch)
            try finalReread(device, &evidence)
        case .artefactWindow:
            try seed(device, &evidence)
            try upgrade(device, &evidence)
            try device.advanceClock(days: 29)
            try device.launch(new, .launch)
            evidence.snapshots[.day29] = try device.snapshot(new)
            try device.advanceClock(days: 2)
            try device.launch(new, .launch)
            evidence.snapshots[.day31] = try device.snapshot(new)
            try finalReread(device, &evidence)
        case .lockedReads:
            try lockedReads(device, &evidence)
        case .crashPoints, .writeFailure, .prewarm, .lockedBackground:
            try explore(&evidence)
        }
    }

    /// The path's verify once more with only the device clock moved (by ``ClockShift/offset(caseID:)``):
    /// a status file holds nothing not derived from the inputs, so both files must be the same bytes.
    private func verifyWithClockShifted(_ device: ScenarioDevice, after first: LaunchRecord) throws -> ClockShift {
        let seconds = ClockShift.offset(caseID: caseID)
        try device.session.advanceClock(by: seconds)
        let second = try device.launch(new, .verify)
        let files = [first, second].map {
            FileManager.default.contents(atPath: ArtifactLayout.statusFile(in: cellFolder, stem: $0.stem))
        }
        return ClockShift(
            seconds: seconds, stems: [first.stem, second.stem], identical: files[0] != nil && files[0] == files[1])
    }

    /// The exploration scenarios: every attempt on its own device, recorded in attempts.json.
    private func explore(_ evidence: inout CellEvidence) throws {
        guard let old else { return }
        let explorer = Explorer(cell: self, old: old, via: via, new: new)
        let (attempts, note) =
            switch unit.scenario {
            case .crashPoints: explorer.crashPoints()
            case .writeFailure: explorer.writeFailures()
            case .prewarm: explorer.prewarm()
            default: explorer.lockedBackground()
            }
        evidence.attempts = attempts
        evidence.explorationNote = note
        try ArtifactFile.write(
            GateJSON.pretty(AttemptsDocument(note: note, attempts: attempts)), to: cellFolder + "/attempts.json")
    }

    /// marker-without-data: the app's bookkeeping items (what the builds declare as `bookkeeping`:
    /// the schema version, the migration date) stay, every other item of the app goes, as when a
    /// user's keychain was restored without them.
    private func removeDataKeepingMarkers(_ device: ScenarioDevice) throws {
        let keychain = adminKeychain(device, identity: new.identity)
        for item in try keychain.dump() where new.identity.accessGroups.contains(item.accessGroup) {
            guard !declarations.isBookkeeping(item) else { continue }
            // By its persistent reference: exactly this item, whatever its class's primary key.
            let query: [CFString: Any] = [
                kSecClass: item.itemClass as CFString, kSecValuePersistentRef: item.persistentReference,
                kSecAttrSynchronizable: kSecAttrSynchronizableAny,
            ]
            let status = keychain.delete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw DeviceError.fileSystem(
                    device.session.layout.keychainPath, reason: "cannot remove an item: \(SecurityStatus(status))")
            }
        }
    }

    /// Another team's app's items on the same device (isolation and cleanup check they stay).
    static let neighbour = AppIdentity(bundleID: "com.neighbour.wallet", applicationIdentifier: "NEIGHBOUR1.com.neighbour.wallet")

    func addNeighbourItems(_ device: ScenarioDevice) throws {
        let items = [
            ("session", kSecAttrAccessibleWhenUnlocked), ("refresh", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly),
        ].map { account, accessible -> (String, [CFString: Any]) in
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "com.neighbour.wallet",
                kSecAttrAccount: account, kSecAttrAccessible: accessible,
                kSecValueData: Data(SHA256.hash(Data("neighbour-\(account)-\(caseID)".utf8))),
            ]
            return ("a neighbour item", query)
        }
        try addItems(items, as: Self.neighbour, on: device)
    }

    /// Adds `items` (each a complete SecItemAdd query, with what it is for messages) to the device's
    /// keychain as the app `identity`.
    /// - Throws: a ``DeviceError`` naming the keychain and the item when an add fails.
    func addItems(_ items: [(what: String, query: [CFString: Any])], as identity: AppIdentity, on device: ScenarioDevice) throws {
        let keychain = adminKeychain(device, identity: identity)
        for (what, query) in items {
            let status = keychain.add(query as CFDictionary, nil)
            guard status == errSecSuccess else {
                throw DeviceError.fileSystem(
                    device.session.layout.keychainPath, reason: "cannot add \(what): \(SecurityStatus(status))")
            }
        }
    }

    func adminKeychain(_ device: ScenarioDevice, identity: AppIdentity) -> Keychain {
        var configuration = Keychain.Configuration(
            storage: .file(device.session.layout.keychainPath), identity: identity, runtime: runtime,
            clock: { ScenarioDevice.epoch })
        configuration.durability = .processKill
        return Keychain(configuration)
    }

    /// entitlements: the old and new builds' entitlements against the items the old build left.
    private func diffEntitlements(_ device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let previous else { return }
        var counts: [String: Int] = [:]
        for item in try device.device.keychainItems() { counts[item.accessGroup, default: 0] += 1 }
        // On a route, the build the new one replaces is the last hop's (its items are on the device).
        let report = try EntitlementsDiffer.diff(old: previous, new: new, itemCounts: counts)
        evidence.entitlementsVerdict = report.exitCode
        evidence.entitlementsSummary = report.summary
        try ArtifactFile.write(Data(report.text.utf8), to: cellFolder + "/entitlements.diff", atomically: true)
    }
}

/// attempts.json: what an exploration covered and each attempt's outcome.
struct AttemptsDocument: Encodable {
    var note: String
    var attempts: [ExplorationAttempt]
}
