import FileUtility
import UpgradeContract

/// The judged gate: a verdict per cell, per scenario on a path, per path, per condition and overall,
/// with the findings behind them and the reasons for every verdict that is not PASS.
///
/// Every collection is sorted, so encoding a report gives the same bytes for the same findings.
public struct GateReport: Codable, Equatable, Sendable {
    /// The overall verdict.
    public package(set) var verdict: Verdict
    /// Why the run is incomplete (a missing shard, an interrupted run); any entry makes the overall verdict at best UNKNOWN.
    public package(set) var incomplete: [String]
    /// The verdict per checked condition, in declaration order.
    public package(set) var conditions: [ConditionResult]
    /// The conditions no selected scenario checks: neither passed nor failed, listed so nobody reads them as passed.
    public package(set) var notChecked: [GateCondition]
    /// The verdict per path, sorted by path id.
    public package(set) var paths: [PathResult]
    /// Findings about the whole run rather than one path (a leak in run.json, say).
    public package(set) var runFindings: [GateFinding]
    /// Every reason the overall verdict is not PASS: FAIL reasons first, then UNKNOWN ones.
    public package(set) var reasons: [String]
    /// The verdict per runtime of a runtime matrix, oldest first; nil (and absent from gate.json) for one runtime.
    public package(set) var runtimeVerdicts: [RuntimeResult]? = nil
    /// The release under test: the build whose paths decide the verdict (the newest of the gate's
    /// builds, or `--release`); nil when every path decides (a report built without one).
    public package(set) var release: String? = nil
    /// Shipped history: the ids of the paths that end at an older build than ``release``, sorted.
    /// They keep their own verdicts in ``paths``; neither the overall verdict, the conditions'
    /// table nor ``reasons`` counts them. Nil (and absent from gate.json) when there are none.
    public package(set) var history: [String]? = nil

    /// The deciding cells with FAILs their baseline has too (same condition and ``FindingKey``),
    /// sorted, each finding beside the baseline's; nil (and absent from gate.json) when there are
    /// none. Reported; those findings decide the verdict only under `--strict`, the cell's others always.
    public package(set) var preExisting: [PreExisting]? = nil

    /// `--strict`: pre-existing FAILs decide too. Nil (absent from gate.json) without it.
    public package(set) var strict: Bool? = nil

    /// Hygiene warnings on deciding cells (`v1-to-v3/reinstall/reinstall-sweeps: ...`), sorted: FAILs
    /// that decide only under `--strict` (``GateFinding/warning``). Under `--strict` they are FAILs
    /// and not listed here. Nil (absent from gate.json) when there are none.
    public package(set) var warnings: [String]? = nil

    /// The product decisions the builds declare (``BuildPolicies``), with their reasons, sorted by
    /// build: reported for review, never a failure. Nil (absent from gate.json) when none declares one.
    public package(set) var policies: [Policy]? = nil

    /// The conditions the selected scenarios check but no deciding cell judged (every checker said
    /// why it could not: a build that registers no startup read, say), in declaration order. Neither
    /// passed nor failed, and absent from ``conditions``. Nil (absent from gate.json) when there are none.
    public package(set) var notJudged: [NotJudged]? = nil

    /// A condition no deciding cell judged: how many cells it had and why none judged it.
    public struct NotJudged: Codable, Equatable, Sendable {
        public package(set) var condition: GateCondition
        public package(set) var cells: Int
        public package(set) var reasons: [String]
    }

    /// The shapes each declared secret was seeded in across the run's cells (``SecretShape``), sorted
    /// by label, with the cells that skipped one and the builds that narrow one. Nil (absent from
    /// gate.json) for a report made without them (a merge of shards).
    public package(set) var shapes: [SecretShapes]? = nil

    /// A policy one build declares: `reinstall` `keeps-credentials`, why, and the old builds of the
    /// deciding paths that did not declare it (a product change to review; nil when none).
    public struct Policy: Codable, Equatable, Sendable, Comparable {
        public package(set) var build: String
        public package(set) var topic: String
        public package(set) var policy: String
        public package(set) var reason: String
        public package(set) var newSince: [String]?

        package init(build: String, topic: String, policy: String, reason: String, newSince: [String]?) {
            self.build = build
            self.topic = topic
            self.policy = policy
            self.reason = reason
            self.newSince = newSince
        }

        public static func < (lhs: Policy, rhs: Policy) -> Bool {
            (lhs.build, lhs.topic) < (rhs.build, rhs.topic)
        }
    }

    /// What each planned cell ran, in plan order: its launches and the inputs the gate varies in it
    /// (clocks, seed variants), so that a team sees where the launches go. Nil (absent from
    /// gate.json) in a merged report and in documents from before it existed.
    public package(set) var inputs: [CellInputs]? = nil

    /// The timeline of each failing or unknown attempt of an exploration, and of each failing cell
    /// that is no exploration, in plan order (``Timeline``). Nil (absent from gate.json) when
    /// nothing failed.
    public package(set) var timelines: [Timeline]? = nil

    /// Where `--keep-failed` kept the devices of what failed, and how many; nil (absent from
    /// gate.json) without the flag.
    public package(set) var keptDevices: KeptDevicesNote? = nil

    /// The folder of the kept devices (its `kept.md` lists them with their launch lines) and their count.
    public struct KeptDevicesNote: Codable, Equatable, Sendable {
        public package(set) var folder: String
        public package(set) var count: Int
        package init(folder: String, count: Int) {
            self.folder = folder
            self.count = count
        }
    }

    /// The cells (`v1-to-v3/reinstall/reinstall-sweeps`) whose every FAIL is pre-existing, so that
    /// the cell does not decide (none under `--strict`).
    public var excused: Set<String> {
        strict == true ? [] : Set((preExisting ?? []).filter { $0.alsoDeciding != true }.map(\.cell))
    }

    /// A deciding cell with FAILs its baseline has too: the cell, the baseline's cell
    /// (`v1-to-v1/reinstall`: the old build in the new build's place; `none-to-v2/reinstall-self`:
    /// the previous release over itself), and each excused finding beside the baseline finding that
    /// excused it (same condition and ``FindingKey``).
    public struct PreExisting: Codable, Equatable, Sendable {
        public package(set) var cell: String
        public package(set) var shownBy: String
        /// Each excused finding of the release, with the baseline's finding that excused it.
        public package(set) var findings: [Excused]? = nil
        /// True when the cell has FAILs (or UNKNOWNs) of the release's own besides, which no
        /// baseline excuses: the cell decides by them. Nil (absent from gate.json) otherwise.
        public package(set) var alsoDeciding: Bool? = nil
    }

    /// A FAIL of the release and the baseline's FAIL with the same condition and key.
    public struct Excused: Codable, Equatable, Sendable {
        public package(set) var finding: GateFinding
        public package(set) var baseline: GateFinding
    }

    /// The reasons of the cell `v1-to-v3/reinstall/reinstall-sweeps` names.
    public func reasons(ofCell cell: String) -> [String] {
        for path in paths {
            for scenario in path.scenarios {
                for result in scenario.conditions where "\(path.path)/\(scenario.scenario)/\(result.condition)" == cell {
                    return result.reasons
                }
            }
        }
        return []
    }

    /// The cells of `condition` on the deciding paths.
    package func deciding(_ condition: GateCondition) -> [CellResult] {
        paths.filter { decides($0.path) }.flatMap { $0.scenarios.flatMap(\.conditions) }.filter { $0.condition == condition }
    }

    /// Whether the path `pathID` decides the verdict (it is not shipped history).
    public func decides(_ pathID: String) -> Bool { !(history ?? []).contains(pathID) }

    /// One runtime's verdict over its paths, and how many (path, scenario) cases passed, failed and are unknown.
    public struct RuntimeResult: Codable, Equatable, Sendable {
        public package(set) var runtime: RuntimeVersion
        public package(set) var verdict: Verdict
        public package(set) var passed: Int
        public package(set) var failed: Int
        public package(set) var unknown: Int
    }

    /// A condition's verdict over every path.
    public struct ConditionResult: Codable, Equatable, Sendable {
        public package(set) var condition: GateCondition
        public package(set) var verdict: Verdict
        /// How many cells of this condition passed, failed and are unknown.
        public package(set) var passed: Int
        public package(set) var failed: Int
        public package(set) var unknown: Int
        /// How many of its cells no checker could judge (counted in none of the above); nil (absent) for none.
        public package(set) var notJudged: Int? = nil
    }

    /// A path's verdict and its scenarios.
    public struct PathResult: Codable, Equatable, Sendable {
        /// The path.
        public package(set) var runtimePath: RuntimePath
        /// The path's id (`v1-to-v2`, `iOS-15.0/v1-to-v2` in a matrix).
        public var path: String { runtimePath.id }
        public package(set) var verdict: Verdict
        public package(set) var scenarios: [ScenarioResult]

        package init(path: RuntimePath, verdict: Verdict, scenarios: [ScenarioResult]) {
            self.runtimePath = path
            self.verdict = verdict
            self.scenarios = scenarios
        }

        /// The document's keys: the path is stored as its id under `path`.
        private enum CodingKeys: String, CodingKey {
            case runtimePath = "path", verdict, scenarios
        }
    }

    /// A scenario's verdict on one path, and its cells.
    public struct ScenarioResult: Codable, Equatable, Sendable {
        public package(set) var scenario: Scenario
        public package(set) var verdict: Verdict
        public package(set) var conditions: [CellResult]
    }

    /// One cell: a condition on a (path, scenario), with its findings.
    public struct CellResult: Codable, Equatable, Sendable {
        public package(set) var condition: GateCondition
        public package(set) var verdict: Verdict
        /// The messages of the findings that decided a FAIL or UNKNOWN verdict, or why there is none.
        public package(set) var reasons: [String]
        /// Every finding on this cell, PASS ones included.
        public package(set) var findings: [GateFinding]
        /// Why no checker could judge this cell (its verdict PASS then proves nothing, and its
        /// condition counts it in none of passed, failed and unknown); nil (absent) for a judged cell.
        public package(set) var notJudged: String? = nil
    }

    /// Every finding in the report, sorted.
    public var allFindings: [GateFinding] {
        (paths.flatMap { $0.scenarios.flatMap { $0.conditions.flatMap(\.findings) } } + runFindings).sorted()
    }

    /// The scenarios that appear on any path, in declaration order.
    public var scenarios: [Scenario] {
        Array(Set(paths.flatMap { $0.scenarios.map(\.scenario) })).sorted()
    }

    /// The (path, scenario) results whose verdict is FAIL or UNKNOWN, with their reasons, FAIL first.
    public var problems: [(path: String, scenario: Scenario, verdict: Verdict, reasons: [String])] {
        problems(history: false).map { ($0.path.id, $0.scenario, $0.verdict, $0.reasons) }
    }

    /// The (path, scenario) results of shipped history (``history``) whose verdict is FAIL or
    /// UNKNOWN, FAIL first: reported, not deciding.
    public var historyProblems: [(path: String, scenario: Scenario, verdict: Verdict, reasons: [String])] {
        problems(history: true).map { ($0.path.id, $0.scenario, $0.verdict, $0.reasons) }
    }

    /// ``problems`` (or, with `history`, ``historyProblems``) with each path as the type.
    package func problems(history: Bool) -> [(path: RuntimePath, scenario: Scenario, verdict: Verdict, reasons: [String])] {
        var rows: [(path: RuntimePath, scenario: Scenario, verdict: Verdict, reasons: [String])] = []
        let excused = excused
        for path in paths where decides(path.path) != history {
            for scenario in path.scenarios where scenario.verdict != .pass {
                let failing = scenario.conditions.filter { $0.verdict != .pass }
                let kept = failing.filter { history || !excused.contains("\(path.path)/\(scenario.scenario)/\($0.condition)") }
                // A scenario whose every failure is pre-existing is not a problem of the release.
                if kept.isEmpty { continue }
                let reasons = kept.flatMap { cell in cell.reasons.map { "\(cell.condition): \($0)" } }
                rows.append((path.runtimePath, scenario.scenario, scenario.verdict, reasons))
            }
        }
        return rows.enumerated().sorted { a, b in
            a.element.verdict.rank != b.element.verdict.rank
                ? a.element.verdict.rank < b.element.verdict.rank : a.offset < b.offset
        }.map(\.element)
    }
}
