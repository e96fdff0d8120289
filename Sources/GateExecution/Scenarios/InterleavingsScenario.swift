import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import SimSupervision

/// interleavings (issue 39; in the default gate where the new build declares an extension): the app's
/// first launch after the upgrade and a launch of one of its extensions run at the same time on one
/// device, and the runner chooses who goes next at each store operation (``StepScheduler``). Every schedule with up to two preemptions is explored while
/// the two launches have at most ``Explorer/interleavingLimit`` operations together; beyond, every
/// schedule with up to one preemption and an evenly spaced sample of those with two. Each schedule is
/// an attempt named by its id (`schedule aaee…`), deduplicated by the device's state after it, and
/// judged by crash-safe's invariants over both processes (no secret lost, what either reported
/// written exists, another launch changes nothing, no legacy copy left after a clean run: no
/// duplicate), stays-signed-in for both launches (the extension's against its old self's startup
/// read), and the verify launch (reads-old-data). A new build without extensions, or a path with no
/// old build, explores nothing.
enum InterleavingsSteps: ScenarioSteps {
    static let moments: Set<Moment> = []

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let item = cell.new.extensions.first else {
            // Nothing runs beside the app: the upgrade's own steps, as extension-first does.
            try cell.seed(device, &evidence)
            try device.install(cell.new)
            try device.launch(cell.new, .launch)
            try device.launch(cell.new, .verify)
            return
        }
        try cell.explore(&evidence) { $0.interleavings(item) }
    }
}

extension Explorer {
    /// N: every schedule with up to ``preemptionBound`` preemptions is run while the app's first
    /// launch and the extension's launch have at most this many store operations together.
    static let interleavingLimit = 16
    /// The preemption bound.
    static let preemptionBound = 2
    /// Beyond N: how many of the two-preemption schedules run, evenly spaced in the order they are found.
    static let interleavingSample = 40

    /// Explores the schedules of the new build's first launch beside its extension `item`'s launch.
    func interleavings(_ item: ExtensionBuild) -> (attempts: [ExplorationAttempt], note: String) {
        let template = template { device, template in
            // What the old release's extension of that name read at its own startup: its baseline.
            guard let old = cell.previous, old.extensions.contains(where: { $0.name == item.name }) else { return }
            let launch = try device.launch(old, .launch, extensionName: item.name)
            if let found = launch.status?.signedInWith {
                template.extensionSignedIn = (
                    found, "\(old.manifest.id)'s extension \(item.name) at its own startup (\(launch.stem))"
                )
            }
        }
        var explored: [String: String] = [:]
        var attempts: [ExplorationAttempt] = []
        var ran: Set<[Int]> = []
        var mostSteps = 0
        var diverged = 0
        // The id an attempt ran under (its prefix, `schedule aae+`) to the schedule's own id.
        var renamed: [String: String] = [:]
        /// Runs the schedule `prefix` leads to; returns its trace (nil when it could not run).
        func run(_ prefix: [Int]) -> ScheduleTrace? {
            ran.insert(prefix)
            var trace: ScheduleTrace?
            let started = "schedule " + ScheduleTrace(choices: prefix).id + "+"
            var attempt = attempt(started, template) { device, record in
                trace = try interleave(item, prefix, on: device, template: template, explored: &explored, &record)
            }
            guard let trace else {
                attempts.append(attempt)
                return nil
            }
            attempt.id = "schedule " + trace.id
            // The timeline opens with both processes' operations in the order the schedule ran them.
            if let timeline = attempt.timeline { attempt.timeline = attempt.log + timeline }
            renamed[started] = attempt.id
            if trace.diverged {
                diverged += 1
                attempt.unknown("the schedule ran as \(trace.id), not as its prefix \(ScheduleTrace(choices: prefix).id)")
            }
            attempts.append(attempt)
            mostSteps = max(mostSteps, trace.choices.count)
            return trace
        }
        // Level by level: the schedules with no preemption, then one, then two (sampled beyond N steps).
        var current: [([Int], ScheduleTrace)] = []
        if let first = run([]) { current.append(([], first)) }
        var sampled: (of: Int, ran: Int)?
        for preemptions in 0...Self.preemptionBound {
            var next: [[Int]] = []
            var index = 0
            while index < current.count {
                let (prefix, trace) = current[index]
                index += 1
                for branch in StepScheduler.branches(of: trace, prefix: prefix.count, bound: Self.preemptionBound)
                where !ran.contains(branch) {
                    let count = ScheduleTrace.preemptions(branch, contested: Array(trace.contested.prefix(branch.count)))
                    // The first choice is free: a branch at step 0 stays at this level.
                    if count <= preemptions {
                        if let again = run(branch) { current.append((branch, again)) }
                    } else {
                        next.append(branch)
                    }
                }
            }
            guard preemptions < Self.preemptionBound else { break }
            var chosen = next
            if preemptions + 1 == Self.preemptionBound, mostSteps > Self.interleavingLimit, next.count > Self.interleavingSample {
                chosen = Self.sample(next.count, limit: Self.interleavingSample).map { next[$0 - 1] }
                sampled = (next.count, chosen.count)
            }
            current = []
            for branch in chosen where !ran.contains(branch) {
                if let trace = run(branch) { current.append((branch, trace)) }
            }
        }
        for index in attempts.indices {
            if let owner = attempts[index].coveredBy, let id = renamed[owner] { attempts[index].coveredBy = id }
        }
        ExplorationAttempt.inheritCoverage(&attempts)
        let covered = attempts.filter { $0.coveredBy != nil }.count
        var note =
            "\(new.manifest.id)'s first launch beside its extension \(item.name): \(attempts.count) schedules run with up to \(Self.preemptionBound) preemptions, at most \(mostSteps) steps"
        if let sampled {
            note +=
                "; beyond \(Self.interleavingLimit) steps, \(sampled.ran) of \(sampled.of) two-preemption schedules sampled evenly"
        }
        note += "; \(explored.count) distinct states after a schedule, \(covered) covered by an equal state"
        if diverged > 0 { note += "; \(diverged) ran otherwise than asked" }
        note += "; \(template.launches) launches"
        return (attempts, note)
    }

    /// One schedule on a prepared device: the app's first launch and the extension's launch
    /// together under `prefix`, then (unless the state after them was explored already) the
    /// recovery's checks with the app's relaunch and verify, and the extension launched again.
    func interleave(
        _ item: ExtensionBuild, _ prefix: [Int], on device: ScenarioDevice, template: Template,
        explored: inout [String: String], _ record: inout AttemptRecord
    ) throws -> ScheduleTrace {
        let folder = device.session.layout.directory + "/steps"
        let pipes = [try StepPipes(folder: folder, name: "app"), try StepPipes(folder: folder, name: "extension")]
        var trace = ScheduleTrace()
        let launches = try device.launchTogether(
            [
                .init(build: new, mode: .launch, steps: pipes[0].channel),
                .init(build: new, mode: .launch, extensionName: item.name, steps: pipes[1].channel),
            ],
            ended: { pipes[$0].ended() },
            whileRunning: { trace = StepScheduler.run(prefix, pipes: pipes) })
        try? FileManager.default.removeItem(atPath: folder)
        device.markSchedule(trace.id, beside: item.name, last: 2)
        let (app, appExtension) = (launches[0], launches[1])
        record.log = Self.timeline(trace, app: app, appExtension: appExtension)
        guard record.needs(app), record.needs(appExtension), record.plans(app) else { return trace }
        // What each process showed the user during this schedule is this schedule's own, whatever
        // state it ends in: judged before the state is deduplicated.
        if let baseline = record.signedIn, !baseline.labels.isEmpty {
            record.record(.signedIn([app], baseline: baseline.labels, source: baseline.source))
        }
        if let baseline = template.extensionSignedIn, !baseline.labels.isEmpty {
            record.record(.signedIn([appExtension], baseline: baseline.labels, source: baseline.source))
        }
        let keychain = try device.keychainItems()
        guard try claim(device, keychain: keychain, explored: &explored, &record) else { return trace }
        try locate(device, when: "after the schedule", &record, keychain: keychain)
        try recovered(device, recovery: app, &record, judgeRecoverySignIn: false)
        let migration = app.status?.migration?.state
        record.record(.holders(locator.holders(app: new, keychain: try device.keychainItems()), migration: migration))
        // The extension again, after the app's relaunch and verify: both of its launches keep what its old self read.
        let again = try device.launch(new, .launch, extensionName: item.name)
        guard record.needs(again), let baseline = template.extensionSignedIn, !baseline.labels.isEmpty else { return trace }
        record.record(.signedIn([again], baseline: baseline.labels, source: baseline.source))
        return trace
    }

    /// Both processes' store operations in the order the schedule let them run: `step 3 e
    /// 02-v2-notify-launch #2 SecItemAdd genp com.example.notes.v2/session errSecDuplicateItem`.
    /// A step is the k-th operation its process was held at; its log entry is the k-th the seam
    /// numbered (file calls refused outside the sandbox and power losses are not held).
    static func timeline(_ trace: ScheduleTrace, app: LaunchRecord, appExtension: LaunchRecord) -> [String] {
        let held = [app, appExtension].map { launch in
            launch.mutations.filter { $0.operation != .powerLoss && $0.subject.store != FileSupervision.outsideStore }
        }
        var next = [0, 0]
        var lines = ["schedule \(trace.id) (\(trace.preemptions) preemptions)"]
        for (step, choice) in trace.choices.enumerated() {
            let launch = choice == 0 ? app : appExtension
            let index = next[choice]
            next[choice] += 1
            let what =
                index < held[choice].count
                ? ExplorationAttempt.describe(held[choice][index]) : "\(trace.operations[step]) (not logged)"
            lines.append("step \(step + 1) \(ScheduleTrace.letters[choice]) \(launch.stem) \(what)")
        }
        return lines
    }
}
