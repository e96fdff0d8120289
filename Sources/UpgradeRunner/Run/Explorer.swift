import Foundation
import SimDevice
import SimRuntime
import SimSecurity

/// The exploration scenarios: crash points (and pairs), injected write failures, and launches
/// while locked or before first unlock. Each attempt runs on its own fresh device, prepared as the
/// upgrade path prepares it (old build installed and seeded, a route's intermediate builds
/// installed and launched in turn, new build installed in place: the faults, crash points and
/// locked launches apply to the first launch of the last build, after the last hop), and is
/// judged against the invariants of DESIGN.md: (I1) every seeded secret is in the new item or the
/// legacy location, never neither; (I2) what a status file reported written exists; (I3) after a
/// clean run the legacy plaintext is gone; (I4) another launch changes nothing; (I6) a crash during
/// recovery still satisfies I1. After recovery the verify launch must read every seeded secret.
struct Explorer {
    let cell: CellRunner
    let old: Build
    /// A route's intermediate builds (``CellRunner/hop(_:)``), empty on a two-build path.
    let via: [Build]
    let new: Build

    /// Pairs are explored exhaustively while the recovery launch has at most this many mutations;
    /// beyond, an evenly spaced deterministic sample of this size.
    static let pairLimit = 20
    /// A locked launch that no unlock will follow does not wait for protected data: it defers at
    /// once (timeout 0), as an app that registers for the "did become available" notification and
    /// moves on. Waiting out a real timeout would only cost wall time for the same outcome.
    static let shortWait = ["-UITestProtectedDataTimeout", "0"]

    private var locator: SecretLocator { SecretLocator(caseID: cell.caseID, labels: cell.declarations.secretLabels) }

    // MARK: Preparing and checking

    /// The prepared state every attempt starts from: a device with the old build installed and
    /// seeded, a route's hops launched, and the new build installed in place, made once per
    /// scenario and cloned per attempt.
    final class Template {
        var device: ScenarioDevice?
        var seeded: [String] = []
        var problem: String?
        /// Whether an attempt has carried the seed launch's honest-status problems (the first does).
        var seedJudged = false
        /// The launches made from this template, its own seed launch included.
        var launches = 0
        /// The devices kept right after each first crash (crash points), for that crash point's pairs.
        var afterCrash: [Int: ScenarioDevice] = [:]
        deinit {
            device?.finish(keepSnapshotFor: nil)
            for kept in afterCrash.values { kept.finish(keepSnapshotFor: nil) }
        }
    }

    private func template() -> Template {
        let template = Template()
        do {
            let device = try ScenarioDevice(
                devices: cell.devices, name: "\(cell.unit.pathID)-\(cell.unit.scenario)-template",
                runtime: cell.runtime, cellFolder: cell.cellFolder + "/attempts/template",
                declarations: cell.declarations, timeout: cell.timeout)
            template.device = device
            try device.install(old)
            let seed = try device.launch(old, .seed)
            template.launches += 1
            template.seeded = cell.declarations.seeded(seed.writtenNames)
            try cell.hop(device)
            try device.install(new)
        } catch {
            template.problem = "cannot prepare the device: \(error)"
        }
        return template
    }

    /// A copy of the prepared device (or of `source`, a device an earlier attempt left right after
    /// its crash, whose launch numbering it continues) for one attempt.
    private func prepared(
        _ id: String, from template: Template, source: ScenarioDevice? = nil
    ) throws -> (ScenarioDevice, seeded: [String]) {
        guard let origin = source ?? template.device, template.problem == nil else {
            throw DeviceError.fileSystem(cell.cellFolder, reason: template.problem ?? "no prepared device")
        }
        let folder = cell.cellFolder + "/attempts/" + id.replacingOccurrences(of: " ", with: "-")
        let device = try ScenarioDevice(
            cloning: origin, devices: cell.devices, name: "\(cell.unit.pathID)-\(id)",
            cellFolder: folder, continuingNumbering: source != nil)
        return (device, template.seeded)
    }

    /// I1: every seeded secret is somewhere the app can recover it from. After a planned crash,
    /// a loss is told in the app's words: which operation on which declared item the crash followed.
    private func checkRecoverable(
        _ device: ScenarioDevice, _ seeded: [String], when: String,
        _ attempt: inout ExplorationAttempt, crashed: LaunchRecord? = nil
    ) throws {
        let places = try locator.locate(on: device.device, app: new)
        for label in seeded where places[label, default: []].isEmpty {
            attempt.fail(
                .crashSafe,
                crashed.flatMap { lossAtCrash(label, $0) }
                    ?? "I1 \(label): in neither the keychain nor a legacy store \(when)")
        }
    }

    /// `I1 apiToken: preferences.write of apiToken (mutation 1) came before any keychain write of
    /// it; a crash there leaves it in neither place`, when the crash followed a mutation of the lost
    /// item itself; else the mutation the crash followed. Nil when the launch logged no mutation.
    private func lossAtCrash(_ label: String, _ crashed: LaunchRecord) -> String? {
        let declarations = cell.declarations
        guard let last = crashed.mutations.last(where: { $0.mutation != nil }), let point = last.mutation else { return nil }
        let owner = declarations.label(of: last.subject)
        let what = "\(last.operation.rawValue) of \(owner ?? Self.names(last.subject)) (mutation \(point))"
        guard owner == label else {
            return "I1 \(label): in neither the keychain nor a legacy store after a crash right after \(what)"
        }
        let keychainWrite = crashed.mutations.dropLast().contains { entry in
            entry.operation.isKeychain && entry.operation.isMutating && entry.status == 0
                && entry.injected == nil && declarations.label(of: entry.subject) == label
        }
        return keychainWrite
            ? "I1 \(label): \(what) left it in neither place, though a keychain write of it came first (was it read back?)"
            : "I1 \(label): \(what) came before any keychain write of it; a crash there leaves it in neither place"
    }

    private static func names(_ subject: SeamSubject) -> String {
        [subject.service, subject.account, subject.name].compactMap { $0 }.joined(separator: "/")
    }

    /// The launch ended cleanly with a status file; otherwise the attempt fails.
    private func checkClean(
        _ record: LaunchRecord, _ attempt: inout ExplorationAttempt, condition: GateCondition = .crashSafe
    ) -> Bool {
        if !record.exitedCleanly {
            attempt.fail(condition, "\(record.stem) \(record.termination)")
            attempt.log += ExplorationAttempt.excerpt(record)
            return false
        }
        if record.status == nil {
            attempt.fail(condition, "\(record.stem) wrote no status file")
            return false
        }
        return true
    }

    /// The exploration is planned from the first launch's mutation log; a launch that logged no
    /// store operation at all (not even a read) means the seam did not record, and nothing could
    /// be explored: the attempt is unknown rather than an empty pass.
    private func checkLogged(_ record: LaunchRecord, _ attempt: inout ExplorationAttempt) -> Bool {
        guard record.mutations.isEmpty else { return true }
        attempt.unknown("\(record.stem) logged no store operation: the seam did not record, so nothing could be explored")
        return false
    }

    /// After recovery: I2 (what the recovery reported written exists), I4 (another launch changes
    /// nothing), the verify launch reads every seeded secret, and I3 (legacy plaintext gone).
    private func checkRecovered(
        _ device: ScenarioDevice, _ seeded: [String], recovery: LaunchRecord,
        _ attempt: inout ExplorationAttempt
    ) throws {
        try checkRecoverable(device, seeded, when: "after recovery", &attempt)
        // An item the status names is found by the new build's declaration of that label; an
        // undeclared one by the account it is named after.
        let items = try device.device.keychainItems().filter { new.identity.accessGroups.contains($0.accessGroup) }
        for item in recovery.status?.items ?? [] where item.location == .keychain && item.result == .written {
            let present =
                if let declared = cell.declarations.newKeychainItem(item.name) {
                    items.contains { CaseDeclarations.matches(declared, $0) }
                } else {
                    items.contains { $0.account == item.name }
                }
            if !present {
                attempt.fail(.crashSafe, "I2 \(item.name): reported written by \(recovery.stem) but not in the keychain")
            }
        }
        let before = try device.snapshot(new)
        let again = try device.launch(new, .launch)
        if checkClean(again, &attempt) {
            let changes = CellEvidence.differences(before, try device.snapshot(new))
            if !changes.isEmpty {
                attempt.fail(.crashSafe, "I4 another launch changed the store: " + changes.joined(separator: "; "))
            }
        }
        let verify = try device.launch(new, .verify)
        guard checkClean(verify, &attempt, condition: .readsOldData), let status = verify.status else { return }
        for label in seeded {
            let result = status.items.first { $0.name == label }
            if result?.result != .found {
                attempt.fail(
                    .readsOldData,
                    "\(label): read back as \(result?.result.rawValue ?? "unreported") after recovery"
                        + (result.map { " (\($0.operation) \(SecurityStatus($0.status)) on \($0.runtime))" } ?? ""))
            }
        }
        if let state = again.status?.migration?.state ?? recovery.status?.migration?.state,
            [MigrationState.migrated, .upToDate].contains(state)
        {
            let places = try locator.locate(on: device.device, app: new)
            for label in seeded where places[label, default: []].contains(.legacy) {
                attempt.fail(.crashSafe, "I3 \(label): legacy plaintext still present after a clean run")
            }
        }
    }

    /// Runs `body` on a prepared device and records the attempt; a device error makes it unknown.
    private func attempt(
        _ id: String, _ template: Template, from source: ScenarioDevice? = nil,
        _ body: (ScenarioDevice, [String], inout ExplorationAttempt) throws -> Void
    ) -> ExplorationAttempt {
        var attempt = ExplorationAttempt(id: id)
        do {
            let (device, seeded) = try prepared(id, from: template, source: source)
            defer { template.launches += device.launches.count }
            defer { device.finish(keepSnapshotFor: attempt.outcome == .ok ? nil : new) }
            if seeded.isEmpty { attempt.unknown("the old build's seed launch reported no secret written") }
            try body(device, seeded, &attempt)
            // honest-status of every launch: the shared seed's once (in the first attempt), then the attempt's own.
            let seedLaunches = template.seedJudged ? [] : template.device?.launches ?? []
            template.seedJudged = true
            for record in seedLaunches + device.launches {
                for problem in record.dishonesty { attempt.fail(.honestStatus, "\(record.stem): \(problem)") }
            }
        } catch {
            attempt.unknown("the attempt stopped: \(error)")
        }
        if LaunchedProcesses.isStopped { attempt.interrupted() }
        return attempt
    }

    // MARK: Crash points

    /// Counts the mutations of the new build's first launch, then for each k kills it right after
    /// the k-th commits, recovers and checks; then pairs: a second crash inside the recovery launch.
    ///
    /// No device state is explored twice: each state right after a crash is fingerprinted
    /// (``ScenarioDevice/stateFingerprint()``), and an attempt that reaches a state an earlier attempt
    /// started its recovery from is recorded as covered by that attempt (its outcome) and not
    /// relaunched. A crash point's pairs start from a copy of the device kept right after its first
    /// crash, so the first crash is not run again for each of them.
    func crashPoints() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        var recoveryMutations: [Int: Int] = [:]
        var firstLaunchMutations = 0
        // Fingerprint of a state after a crash -> the attempt that recovered from it.
        var explored: [String: String] = [:]
        var attempts = [
            attempt("baseline", template) { device, seeded, attempt in
                let first = try device.launch(new, .launch)
                firstLaunchMutations = first.mutations.compactMap(\.mutation).max() ?? 0
                guard checkClean(first, &attempt), checkLogged(first, &attempt) else { return }
                try checkRecovered(device, seeded, recovery: first, &attempt)
            }
        ]
        for k in stride(from: 1, through: firstLaunchMutations, by: 1) {
            attempts.append(
                attempt("crash \(k)", template) { device, seeded, attempt in
                    let crashed = try device.launch(new, .launch, faultPlan: FaultPlan(crashAfterMutation: k))
                    guard crashed.endedAtCrashPoint else {
                        attempt.unknown("crash point \(k) was not reached (\(crashed.termination))")
                        return
                    }
                    attempt.log = ExplorationAttempt.excerpt(crashed)
                    let state = try device.stateFingerprint()
                    if let owner = explored[state] {
                        attempt.coveredBy = owner
                        return
                    }
                    explored[state] = attempt.id
                    template.afterCrash[k] = try ScenarioDevice(
                        cloning: device, devices: cell.devices, name: "\(cell.unit.pathID)-after-crash-\(k)",
                        cellFolder: cell.cellFolder + "/attempts/crash-\(k)", continuingNumbering: true)
                    try checkRecoverable(device, seeded, when: "after the crash", &attempt, crashed: crashed)
                    let recovery = try device.launch(new, .launch)
                    recoveryMutations[k] = recovery.mutations.compactMap(\.mutation).max() ?? 0
                    guard checkClean(recovery, &attempt) else { return }
                    try checkRecovered(device, seeded, recovery: recovery, &attempt)
                })
        }
        var sampled: [Int] = []
        for k in stride(from: 1, through: firstLaunchMutations, by: 1) {
            let count = recoveryMutations[k] ?? 0
            let seconds = Self.sample(count, limit: Self.pairLimit)
            if seconds.count < count { sampled.append(k) }
            guard let afterCrash = template.afterCrash[k] else { continue }
            for j in seconds {
                attempts.append(
                    attempt("crash \(k) then \(j)", template, from: afterCrash) { device, seeded, attempt in
                        let second = try device.launch(new, .launch, faultPlan: FaultPlan(crashAfterMutation: j))
                        guard second.endedAtCrashPoint else {
                            return attempt.unknown(
                                "crash point \(j) of the recovery launch was not reached (\(second.termination))")
                        }
                        attempt.log = ExplorationAttempt.excerpt(second, last: 2)
                        let state = try device.stateFingerprint()
                        if let owner = explored[state] {
                            attempt.coveredBy = owner
                            return
                        }
                        explored[state] = attempt.id
                        try checkRecoverable(device, seeded, when: "after a crash during recovery (I6)", &attempt)
                        let recovery = try device.launch(new, .launch)
                        guard checkClean(recovery, &attempt) else { return }
                        try checkRecovered(device, seeded, recovery: recovery, &attempt)
                    })
            }
        }
        ExplorationAttempt.inheritCoverage(&attempts)
        let pairs = attempts.count - 1 - firstLaunchMutations
        var note =
            "first launch of \(new.manifest.id): \(firstLaunchMutations) mutations; \(firstLaunchMutations) crash points and \(pairs) pairs explored"
        if !sampled.isEmpty {
            note +=
                "; pairs sampled (\(Self.pairLimit) of each) after crash points \(sampled.map(String.init).joined(separator: ", "))"
        }
        let covered = attempts.filter { $0.coveredBy != nil }.count
        note +=
            "; \(explored.count) distinct states after a crash, \(covered) attempts covered by an equal state; \(template.launches) launches"
        return (attempts, note)
    }

    /// 1...count, or an evenly spaced sample of `limit` of them.
    static func sample(_ count: Int, limit: Int) -> [Int] {
        guard count > limit else { return Array(stride(from: 1, through: count, by: 1)) }
        return (0..<limit).map { 1 + $0 * (count - 1) / (limit - 1) }
    }

    // MARK: Write failures

    /// The k-th keychain write call of the new build's first launch answers
    /// errSecInteractionNotAllowed, errSecIO (or errSecDuplicateItem for an add), or reports
    /// success while storing nothing; then the app is relaunched without faults and verified.
    func writeFailures() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        var calls: [StoreOperation: Int] = [:]
        var attempts = [
            attempt("baseline", template) { device, seeded, attempt in
                let first = try device.launch(new, .launch)
                for entry in first.mutations where entry.operation.isKeychain && entry.operation.isMutating {
                    calls[entry.operation, default: 0] += 1
                }
                guard checkClean(first, &attempt), checkLogged(first, &attempt) else { return }
                try checkRecovered(device, seeded, recovery: first, &attempt)
            }
        ]
        for operation in calls.keys.sorted() {
            var actions: [FaultAction] = [.status(errSecInteractionNotAllowed), .status(errSecIO), .dropWrite]
            if operation == .secItemAdd { actions.insert(.status(errSecDuplicateItem), at: 2) }
            for k in 1...calls[operation]! {
                for action in actions {
                    let label =
                        switch action {
                        case .status(let status): "\(SecurityStatus(status).name ?? "\(status)")"
                        case .dropWrite: "lost write"
                        }
                    attempts.append(
                        attempt("\(operation.rawValue) \(k) \(label)", template) { device, seeded, attempt in
                            let faulted = try device.launch(
                                new, .launch, faultPlan: FaultPlan(faults: [Fault(operation, call: k, action)]))
                            attempt.log = ExplorationAttempt.excerpt(faulted)
                            guard checkClean(faulted, &attempt) else { return }
                            try checkRecoverable(device, seeded, when: "after the failed write", &attempt)
                            let recovery = try device.launch(new, .launch)
                            guard checkClean(recovery, &attempt) else { return }
                            try checkRecovered(device, seeded, recovery: recovery, &attempt)
                        })
                }
            }
        }
        let total = attempts.count - 1
        let summary = calls.keys.sorted().map { "\($0.rawValue) x\(calls[$0]!)" }.joined(separator: ", ")
        return (attempts, "first launch of \(new.manifest.id): keychain writes \(summary); \(total) faults injected")
    }

    // MARK: Locked launches

    /// prewarm: the new build's first launch happens before first unlock; the device is unlocked
    /// after the app has exited (then relaunched), or while the app waits for protected data.
    func prewarm() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        let afterExit = attempt("prewarm unlock after exit", template) { device, seeded, attempt in
            try device.session.shutdown()
            try device.session.boot(lockState: .beforeFirstUnlock)
            let prewarmed = try device.launch(new, .launch, extraArguments: Self.shortWait)
            attempt.log = ExplorationAttempt.excerpt(prewarmed)
            guard checkClean(prewarmed, &attempt, condition: .lockedLaunchSafe) else { return }
            try checkRecoverable(device, seeded, when: "after a launch before first unlock", &attempt)
            try device.session.unlock()
            let recovery = try device.launch(new, .launch)
            guard checkClean(recovery, &attempt, condition: .lockedLaunchSafe) else { return }
            try checkRecovered(device, seeded, recovery: recovery, &attempt)
        }
        let whileWaiting = attempt("prewarm unlock while waiting", template) { device, seeded, attempt in
            try device.session.shutdown()
            try device.session.boot(lockState: .beforeFirstUnlock)
            // The unlock comes on the app's word that it waits (its platform writes to the FIFO),
            // not after a guessed delay; the app's own wait is a long safety timeout.
            let session = device.session
            let listener = try ProtectedDataWaitListener(path: session.layout.directory + "/protected-data-wait.fifo")
            let unlocker = UnlockOnAnnouncement(listener: listener, session: session)
            let waited = try device.launch(
                new, .launch, extraArguments: ["-UITestProtectedDataTimeout", "\(Int(cell.timeout))"],
                environment: listener.environment)
            // A build that deferred without waiting never announced: the device is unlocked now.
            if !unlocker.finish() { try session.unlock() }
            attempt.log = ExplorationAttempt.excerpt(waited)
            guard checkClean(waited, &attempt, condition: .lockedLaunchSafe) else { return }
            try checkRecoverable(device, seeded, when: "after the launch that waited for protected data", &attempt)
            // A build that migrates once unlocked does it in this launch; one that deferred without
            // waiting does it in the next. Either loses nothing; the checks that follow need a
            // settled store, so the next launch comes first.
            let recovery = try device.launch(new, .launch)
            guard checkClean(recovery, &attempt, condition: .lockedLaunchSafe) else { return }
            try checkRecovered(device, seeded, recovery: recovery, &attempt)
        }
        return ([afterExit, whileWaiting], "2 prewarm launches (unlocked after exit, unlocked while waiting)")
    }

    /// locked-background: launches while locked after first unlock, before and after the migration.
    func lockedBackground() -> (attempts: [ExplorationAttempt], note: String) {
        let template = template()
        let beforeMigration = attempt("locked first launch", template) { device, seeded, attempt in
            try device.session.lock()
            let locked = try device.launch(new, .launch, extraArguments: Self.shortWait)
            attempt.log = ExplorationAttempt.excerpt(locked)
            guard checkClean(locked, &attempt, condition: .lockedLaunchSafe) else { return }
            try checkRecoverable(device, seeded, when: "after a locked launch", &attempt)
            try device.session.unlock()
            let recovery = try device.launch(new, .launch)
            guard checkClean(recovery, &attempt, condition: .lockedLaunchSafe) else { return }
            try checkRecovered(device, seeded, recovery: recovery, &attempt)
        }
        let afterMigration = attempt("locked background launch", template) { device, seeded, attempt in
            let first = try device.launch(new, .launch)
            guard checkClean(first, &attempt, condition: .lockedLaunchSafe) else { return }
            try device.session.lock()
            for _ in 0..<2 {
                let background = try device.launch(new, .launch, extraArguments: Self.shortWait)
                attempt.log = ExplorationAttempt.excerpt(background)
                guard checkClean(background, &attempt, condition: .lockedLaunchSafe) else { return }
                try checkRecoverable(device, seeded, when: "after a background launch while locked", &attempt)
            }
            try device.session.unlock()
            try checkRecovered(device, seeded, recovery: first, &attempt)
        }
        return ([beforeMigration, afterMigration], "2 launches while locked after first unlock (before and after migration)")
    }
}

/// Unlocks a device from a thread of its own when a launch announces that it waits for protected data.
private final class UnlockOnAnnouncement: @unchecked Sendable {
    private let listener: ProtectedDataWaitListener
    private let done = DispatchSemaphore(value: 0)
    private var unlocked = false

    init(listener: ProtectedDataWaitListener, session: DeviceSession) {
        self.listener = listener
        Thread.detachNewThread { [self] in
            if listener.waitForAnnouncement() { unlocked = (try? session.unlock()) != nil }
            done.signal()
        }
    }

    /// Stops listening (the launch ended) and tells whether the unlock happened.
    func finish() -> Bool {
        listener.cancel()
        done.wait()
        return unlocked
    }
}
