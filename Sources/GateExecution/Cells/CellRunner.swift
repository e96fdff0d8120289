import Entitlements
import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// Runs one (path, scenario) cell on its own fresh device and judges it.
///
/// Every cell starts from an empty device with a fixed clock, installs the old build, seeds the
/// case, then does what its scenario says (docs/architecture.md's table). On a multi-hop route
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
    /// Whether the cells that ask for it run again at a second clock for honest-status
    /// (``ClockTwin``; not under `--inputs minimal`).
    var secondClock = true
    /// Where the devices of what failed are kept (`--keep-failed`); nil: none kept.
    var kept: KeptDevices?
    /// Every launch of the cell's devices (each copy and each fresh device it makes adds to it).
    let launchCount = LaunchCount()

    var cellFolder: String { outFolder + "/" + unit.folder }

    /// What the cell's builds keep where, for this case (resolved once, read by every step).
    let declarations: CaseDeclarations

    init(
        unit: PlanUnit, old: Build?, via: [Build] = [], new: Build, runtime: RuntimeVersion, caseID: String,
        devices: DeviceSet, outFolder: String, timeout: Double, runScenarios: [Scenario]? = nil
    ) {
        self.unit = unit
        // reinstall-self: the release is its own old build (it seeds, is uninstalled, and is installed again).
        let old = unit.scenario == .reinstallSelf ? (old ?? new) : old
        self.old = old
        self.via = via
        self.new = new
        self.runtime = runtime
        self.caseID = caseID
        self.devices = devices
        self.outFolder = outFolder
        self.timeout = timeout
        declarations = CaseDeclarations(
            old: old, via: via, new: new, caseID: caseID, scenario: unit.scenario, runScenarios: runScenarios)
    }

    /// Why a cell whose devices folder was removed under it is not judged.
    var vanished: String {
        "the devices folder \(devices.root) vanished while the cell ran (another process removed it): nothing the cell showed is judged"
    }
    /// The reason of every cell and attempt that the runner's interruption cut short.
    static let interrupted = "the runner was interrupted (SIGINT or SIGTERM) before the cell finished"

    /// Runs the scenario, judges it, and returns the evidence and the findings.
    func run() -> (evidence: CellEvidence, findings: [GateFinding], inputs: CellInputs) {
        var evidence = CellEvidence(unit: unit, runtime: runtime, caseID: caseID)
        evidence.declarations = declarations
        let device: ScenarioDevice
        do {
            device = try ScenarioDevice(
                devices: devices, name: "\(unit.pathID)-\(unit.scenario)",
                runtime: unit.scenario.steps.startRuntime(self) ?? runtime,
                cellFolder: cellFolder, declarations: declarations, timeout: timeout, launchCount: launchCount)
        } catch {
            evidence.aborted = OwnedFolder.vanished(devices.root) ? vanished : "cannot prepare a device: \(error)"
            return (evidence, CellJudge.judge(evidence), inputs(evidence, launches: 0))
        }
        if let kept, !unit.scenario.isExploration {
            device.checkpointPlan = (new.manifest.id, KeptDevices.name(cell: unit.description, attempt: nil), kept)
        }
        do {
            try unit.scenario.steps.run(self, on: device, &evidence)
        } catch {
            evidence.aborted = "the scenario stopped: \(error)"
        }
        // A cell the interrupt cut short proves nothing either way, whatever its launches showed.
        if LaunchedProcesses.isStopped { evidence.aborted = Self.interrupted }
        // Nor does a cell whose devices another process removed under it.
        if OwnedFolder.vanished(devices.root) { evidence.aborted = vanished }
        evidence.launches = device.launches
        if unit.scenario.steps.twinsLaunches && secondClock && evidence.aborted == nil {
            evidence.secondClock = true
            do {
                evidence.clockTwins = try ClockTwin.run(self, pairedWith: device.launches)
            } catch {
                evidence.clockTwinFailure = "the run at a second clock stopped: \(error)"
            }
            if LaunchedProcesses.isStopped { evidence.aborted = Self.interrupted }
            if OwnedFolder.vanished(devices.root) { evidence.aborted = vanished }
        }
        assert(
            evidence.aborted != nil || Set(evidence.snapshots.keys) == unit.scenario.steps.moments,
            "\(unit.scenario) snapshots \(evidence.snapshots.keys.map(\.rawValue).sorted()), not the moments it declares")
        let findings = FindingInputs.named(CellJudge.judge(evidence), in: evidence)
        let failed = findings.contains { $0.verdict != .pass }
        let keep = failed && !unit.scenario.isExploration && evidence.aborted != Self.interrupted ? kept : nil
        device.finish(keepSnapshotFor: failed ? new : nil, keep: keep.map { ($0, unit.description, nil, nil) })
        return (evidence, findings, inputs(evidence, launches: launchCount.value))
    }

    /// The timelines of what failed in the cell: each failing or unknown attempt's of an
    /// exploration, else the cell's launches when one of its findings is not PASS (none for a cell
    /// the runner's interruption cut short, or whose device could not be prepared).
    func timelines(_ evidence: CellEvidence, findings: [GateFinding]) -> [Timeline] {
        guard evidence.aborted != Self.interrupted else { return [] }
        if let exploration = evidence.exploration {
            return exploration.attempts.compactMap { attempt in
                attempt.timeline.map { Timeline(cell: unit.description, attempt: attempt.id, lines: $0) }
            }
        }
        guard findings.contains(where: { $0.verdict != .pass && $0.warning != true }), !evidence.launches.isEmpty else {
            return []
        }
        return [
            Timeline(
                cell: unit.description, attempt: nil,
                lines: TimelineBuilder.cell(evidence.launches, labels: declarations.locator.labels))
        ]
    }

    /// What the cell ran, for the report's inputs table: its launches, the clocks its new build
    /// first launched at (offsets from the cell's fixed date) and its seed variants.
    private func inputs(_ evidence: CellEvidence, launches: Int) -> CellInputs {
        var clocks: [String] = []
        if unit.scenario == .lateUpgrade { clocks.append("+\(Int(LateUpgradeSteps.offset(caseID: caseID) / 86_400)) d") }
        if unit.scenario.steps.twinsLaunches && secondClock {
            if clocks.isEmpty { clocks.append("+0 d") }
            clocks.append("+\(Int(ClockTwin.offset(caseID: caseID) / 86_400)) d, every date")
        }
        return CellInputs(
            cell: unit.description, launches: launches, clocks: clocks.isEmpty ? nil : clocks,
            variants: evidence.seedVariants?.map(\.id))
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
    func finalReread(_ device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
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

    /// The exploration scenarios: every attempt on its own device (``Explorer``), judged as it
    /// ends (``ExplorationInvariants``) and recorded in attempts.json.
    func explore(
        _ evidence: inout CellEvidence, _ scenario: (Explorer) -> (attempts: [ExplorationAttempt], note: String)
    ) throws {
        guard let old else { return }
        var (attempts, note) = scenario(Explorer(cell: self, old: old, new: new))
        // A timeline stays with each attempt that failed or is unknown, once coverage is inherited.
        for index in attempts.indices where attempts[index].outcome == .ok { attempts[index].timeline = nil }
        evidence.facts = .exploration(ExplorationFacts(attempts: attempts, note: note))
        try ArtifactFile.write(
            GateJSON.pretty(AttemptsDocument(note: note, attempts: attempts)), to: cellFolder + "/" + ArtifactLayout.attemptsFile)
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
}

/// attempts.json: what an exploration covered and each attempt's outcome.
struct AttemptsDocument: Encodable {
    var note: String
    var attempts: [ExplorationAttempt]
}
