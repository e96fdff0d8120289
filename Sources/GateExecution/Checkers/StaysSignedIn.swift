import GateModel
import SimRuntime

/// stays-signed-in: after an upgrade, every launch of the new build finds, in its own startup read
/// (the status file's `startup`: what the app's first screen read), each secret that the old
/// build's startup read found. This is what the user sees: a migration can leave every item where
/// it belongs and still show the user signed out on the first launch, because the app reads
/// before it migrates, or reads with a query that no longer matches.
///
/// - The old build's read is its seed launch's `startup` (the device as the old release left it,
///   unlocked). A build that registers no startup read stands for one that found every secret its
///   seed reported written.
/// - Every launch of the new build in the cell is judged: the first launch after the upgrade,
///   relaunches, verifies (also while locked and before first unlock), a launch days later; up
///   to the test's own cleanup launch (isolation's), after which signed out is right.
/// - A read that answered `locked` in a launch that ran locked is not required: the secret's
///   place was not readable in that lock state (whether the new build narrowed it is
///   keeps-availability's question). A `missing` there is the empty read a locked device gives
///   an app that trusts it.
/// - A new build that registers no startup read is not judged (a not-judged finding that says so,
///   which no condition counts as PASS: ``GateFinding/notJudged``; preflight names it). A launch that ended without a status file is the other conditions' finding.
/// - In the exploration scenarios (crash points, write failures, prewarm, locked background), each
///   attempt's launches after its recovery (the recovery, the relaunch, the verify; the device
///   unlocked) must find them too (I7, ``ExplorationInvariants``).
enum StaysSignedIn: CellChecker {
    static let condition = GateCondition.staysSignedIn

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        // Exploration: each attempt's launches after its recovery (I7), judged with the attempt.
        if evidence.scenario.isExploration { return evidence.explorationFindings(condition) }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        let newBuild = evidence.newBuild
        // Until the test's own cleanup removes the case's items (isolation's): after it, signed out is right.
        let launches = evidence.launches.prefix { !($0.build == newBuild && $0.mode == .cleanup) }
        var judged = launches.filter { $0.build == newBuild && $0.status != nil }
        // second-device: the old release's launches on the user's other device after its first, each
        // against that first launch's read (B's baseline), in the order they ran among A's.
        let onSecond = launches.filter { $0.device == SecondDeviceSteps.secondName }
        if let first = onSecond.first {
            guard first.status != nil else {
                return [evidence.finding(condition, .unknown, "the first launch on device B (\(first.stem)) left no status file")]
            }
            judged = (judged + onSecond.dropFirst().filter { $0.status != nil }).sorted { $0.index < $1.index }
        }
        // reinstall-self: the release's own launches after its own seed; after the reinstall only
        // under keeps-credentials, and only what that policy keeps (the keychain's).
        let reinstall = evidence.reinstallSelf
        if reinstall != nil { judged = judged.filter { $0.mode != .seed } }
        guard !judged.isEmpty else {
            return [evidence.finding(condition, .unknown, "no launch of \(newBuild) left a status file")]
        }
        guard judged.contains(where: { $0.status?.startup != nil }) else {
            return [evidence.finding(condition, .pass, notJudgedReason(newBuild), notJudged: true)]
        }
        guard let (baseline, source) = baseline(evidence) else {
            return [evidence.finding(condition, .unknown, "the old build's seed launch left no status file")]
        }
        guard !baseline.isEmpty else {
            return [evidence.finding(condition, .pass, "nothing to keep: the old build's startup read found no secret")]
        }
        // Of the scenarios judged here, only locked-reads launches while locked (its facts say which).
        let lockStates = evidence.lockedReads?.lockStates ?? [:]
        let kept = baseline.filter { evidence.declarations.keptAcrossReinstall($0) == .found }
        if let reinstall { judged = judged.filter { $0.index < reinstall.firstAfterReinstall || !kept.isEmpty } }
        var findings: [GateFinding] = []
        for (offset, launch) in judged.enumerated() {
            // Counted per device where a cell has two.
            let position = judged.prefix(offset).filter { $0.device == launch.device }.count
            let state = lockStates[launch.index] ?? launch.extensionLockState ?? .unlocked
            let afterReinstall = reinstall.map { launch.index >= $0.firstAfterReinstall } ?? false
            let onSecondDevice = launch.device == SecondDeviceSteps.secondName
            let name = describe(
                launch, position: position, state: state,
                when: onSecondDevice
                    ? "after device A's upgrade and a sync"
                    : reinstall == nil
                        ? "after the upgrade" : afterReinstall ? "after the reinstall (keeps-credentials)" : "after its own seed")
            var baseline = afterReinstall ? kept : baseline
            var source = source
            if onSecondDevice, let first = onSecond.first {
                baseline = first.status?.signedInWith ?? []
                source = "\(first.build)'s startup read on device B before the upgrade (\(first.stem))"
            }
            // An extension's launch (extension-first) keeps what its old self read at its own startup.
            if let name = launch.extensionName,
                let old = evidence.launches.first(where: { $0.extensionName == name && $0.build != newBuild }),
                let found = old.status?.signedInWith
            {
                baseline = found
                source = "\(old.build)'s extension \(name) at its own startup (\(old.stem))"
            }
            guard let startup = launch.status?.startup else {
                findings.append(evidence.finding(condition, .fail, item: launch.stem, "\(name) reported no startup read"))
                continue
            }
            for label in baseline.sorted() {
                let read = startup.first { $0.name == label }
                switch read?.result {
                case .found: continue
                case .locked where state != .unlocked: continue
                default:
                    let got = read.map { "read it \($0.result.rawValue) (\($0.status))" } ?? "did not read it"
                    findings.append(
                        evidence.finding(
                            condition, .fail, item: label, operation: read?.operation, status: read?.status,
                            "\(name) \(got); \(source) found it", key: FindingKey(label, in: .secret, .signedOut)))
                }
            }
        }
        if !findings.isEmpty { return findings }
        if let first = onSecond.first {
            let onA = judged.filter { $0.device != SecondDeviceSteps.secondName }.count
            let found = (first.status?.signedInWith ?? []).sorted()
            return [
                evidence.finding(
                    condition, .pass,
                    "\(onA) launch(es) of \(newBuild) on device A read \(baseline.sorted().joined(separator: ", ")) as \(source) did; "
                        + "\(judged.count - onA) launch(es) of \(first.build) on device B after the syncs read "
                        + (found.isEmpty
                            ? "what its first launch there read (nothing)"
                            : found.joined(separator: ", ") + " as its first launch there did"))
            ]
        }
        return [
            evidence.finding(
                condition, .pass,
                "\(judged.count) launch(es) of \(newBuild) read \(baseline.sorted().joined(separator: ", ")) as \(source) did")
        ]
    }

    /// `findings` of a cell whose new build registers no startup read (preflight found it: `unread`),
    /// with the condition's PASSes replaced by one not-judged finding: an exploration's I7 and each
    /// seed variant had no startup read to judge, so their PASS proves nothing. A FAIL or UNKNOWN stays.
    static func judgedWithoutStartupRead(_ findings: [GateFinding], unit: PlanUnit, unread: Set<String>) -> [GateFinding] {
        guard unread.contains(unit.path.new) else { return findings }
        let mine = findings.filter { $0.condition == condition }
        guard !mine.isEmpty, mine.allSatisfy({ $0.verdict == .pass && $0.notJudged != true }) else { return findings }
        let note = GateFinding(
            condition, path: unit.runtimePath, scenario: unit.scenario, verdict: .pass,
            detail: notJudgedReason(unit.path.new), notJudged: true)
        return findings.filter { $0.condition != condition } + [note]
    }

    /// Why a cell of `build` is not judged; the same words wherever it is found, so the report lists one reason.
    static func notJudgedReason(_ build: String) -> String {
        "not judged: \(build) registers no startup read (AppBuild.startupRead)"
    }

    /// The labels the old build's startup read found, and how to name that read in a finding.
    static func baseline(_ evidence: CellEvidence) -> (Set<String>, String)? {
        baseline(seed: evidence.launches.first(where: { $0.mode == .seed }), seeded: evidence.seeded)
    }

    /// The labels the seed launch `seed`'s startup read found (without one: what it seeded), and
    /// how to name that read in a finding; nil when the seed left no status file.
    static func baseline(seed: LaunchRecord?, seeded: [String]) -> (labels: Set<String>, source: String)? {
        guard let seed, let status = seed.status else { return nil }
        if let found = status.signedInWith { return (found, "\(seed.build)'s startup read at its seed") }
        return (Set(seeded), "\(seed.build) (no startup read registered: what its seed wrote)")
    }

    /// `the first launch of v3 after the upgrade (04-v3-launch, before first unlock)`.
    static func describe(_ launch: LaunchRecord, position: Int, state: LockState, when: String = "after the upgrade") -> String {
        let ordinal = ["first", "second", "third", "fourth", "fifth"]
        let which = position < ordinal.count ? "the \(ordinal[position]) launch" : "launch \(position + 1)"
        let lock =
            switch state {
            case .unlocked: ""
            case .locked: ", locked"
            case .beforeFirstUnlock: ", before first unlock"
            }
        let of = launch.extensionName.map { "\(launch.build)'s extension \($0)" } ?? launch.build
        let device = launch.device.map { " on device \($0)" } ?? ""
        return "\(which) of \(of)\(device) \(when) (\(launch.stem)\(lock))"
    }
}
