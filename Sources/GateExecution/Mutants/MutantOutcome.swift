import GateModel
/// What the gate did to one known-bad build: the conditions that failed on any of its paths and
/// whether its expected condition was among them.
public struct MutantOutcome: Codable, Equatable, Sendable {
    /// The mutant's build id.
    public package(set) var id: String
    /// The anti-pattern it carries (its manifest's `antiPattern`).
    public package(set) var antiPattern: String
    /// The condition that must catch it (its manifest's `expectedCondition`).
    public package(set) var expected: GateCondition
    /// The paths it ran on, such as `v1-to-no-read-back`, sorted.
    public package(set) var paths: [String]
    /// Every condition with a FAIL cell on any of its paths, in declaration order.
    public package(set) var failed: [GateCondition]
    /// Every condition with an UNKNOWN cell and no FAIL one, in declaration order.
    public package(set) var unknown: [GateCondition]
    /// Why the expected condition was UNKNOWN where it was (the cells' first reasons, such as a launch
    /// that timed out); nil when it never was.
    public package(set) var expectedUnknownReasons: [String]? = nil

    /// A mutant's outcome.
    public init(
        id: String, antiPattern: String, expected: GateCondition, paths: [String], failed: [GateCondition],
        unknown: [GateCondition]
    ) {
        self.id = id
        self.antiPattern = antiPattern
        self.expected = expected
        self.paths = paths.sorted()
        self.failed = Array(Set(failed)).sorted()
        self.unknown = Array(Set(unknown).subtracting(failed)).sorted()
    }

    /// The outcome of a mutant from the reports of the gate runs over its paths.
    public init(id: String, antiPattern: String, expected: GateCondition, reports: [GateReport]) {
        let cells = reports.flatMap { $0.paths.flatMap { $0.scenarios.flatMap(\.conditions) } }
        let run = reports.flatMap(\.runFindings)
        self.init(
            id: id, antiPattern: antiPattern, expected: expected,
            paths: reports.flatMap { $0.paths.map(\.path) },
            failed: cells.filter { $0.verdict == .fail }.map(\.condition) + run.filter { $0.verdict == .fail }.map(\.condition),
            unknown: cells.filter { $0.verdict == .unknown }.map(\.condition))
        let reasons = cells.filter { $0.condition == expected && $0.verdict == .unknown }.compactMap(\.reasons.first)
        if !caught && !reasons.isEmpty { expectedUnknownReasons = Array(Set(reasons)).sorted().prefix(3).map { $0 } }
    }

    /// Why the gate did not catch the mutant, or nil when it did: its expected condition UNKNOWN (and
    /// why), FAIL by other conditions only, or PASS.
    public var notCaughtReason: String? {
        guard !caught else { return nil }
        if unknown.contains(expected) {
            let why = (expectedUnknownReasons ?? []).map { GateFinding.oneLine($0) }.joined(separator: "; ")
            return "`\(expected)` was UNKNOWN" + (why.isEmpty ? "" : ": \(why)")
        }
        if !failed.isEmpty {
            return "FAIL by another condition only (\(failed.map { "`\($0)`" }.joined(separator: ", "))), not by `\(expected)`"
        }
        return paths.isEmpty
            ? "PASS: it ran on no path" : "PASS: no condition failed on its paths (\(paths.joined(separator: ", ")))"
    }

    /// Whether the gate caught the mutant: its expected condition FAILed. Another condition failing
    /// does not count, and neither does UNKNOWN.
    public var caught: Bool { failed.contains(expected) }

    /// `yes`, `no`, or `no (expected condition UNKNOWN)` when it was not judged (a scenario not run).
    public var caughtText: String {
        if caught { return "yes" }
        return unknown.contains(expected) ? "no (\(expected) UNKNOWN)" : "no"
    }
}

/// The whole catalogue run: every mutant's outcome and the verdict of the released builds' gate.
public struct MutantsSummary: Codable, Equatable, Sendable {
    /// The released builds' gate verdict (they must still PASS).
    public package(set) var releasedVerdict: Verdict
    /// The released builds, oldest first.
    public package(set) var released: [String]
    /// One outcome per mutant, sorted by id.
    public package(set) var mutants: [MutantOutcome]

    /// A summary; mutants are sorted by id.
    public init(releasedVerdict: Verdict, released: [String], mutants: [MutantOutcome]) {
        self.releasedVerdict = releasedVerdict
        self.released = released
        self.mutants = mutants.sorted { $0.id < $1.id }
    }

    /// How many mutants were caught by their expected condition.
    public var caughtCount: Int { mutants.filter(\.caught).count }

    /// 0 when every mutant was caught by its expected condition and the released builds PASS;
    /// 1 when a mutant escaped or a released build FAILs; 3 when all were caught but the released
    /// builds' gate is UNKNOWN (it fails closed). No mutant at all is 1: nothing proves the gate's power.
    public var exitCode: Int32 {
        if mutants.isEmpty || caughtCount < mutants.count || releasedVerdict == .fail { return 1 }
        return releasedVerdict == .pass ? 0 : 3
    }

    /// The table for people: mutant, anti-pattern, expected condition, conditions that failed, caught;
    /// then the power (share caught) and the released builds' verdict.
    public var table: String {
        var lines = [
            "| mutant | anti-pattern | expected condition | conditions that failed | caught |",
            "| --- | --- | --- | --- | --- |",
        ]
        for mutant in mutants {
            let failed = mutant.failed.isEmpty ? "—" : mutant.failed.map { "`\($0)`" }.joined(separator: ", ")
            let cells = ["`\(mutant.id)`", Self.cell(mutant.antiPattern), "`\(mutant.expected)`", failed, mutant.caughtText]
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        let percent = mutants.isEmpty ? 0 : caughtCount * 100 / mutants.count
        lines.append("")
        lines.append("Caught \(caughtCount) of \(mutants.count) mutants by their expected condition (\(percent)%).")
        for mutant in mutants {
            if let reason = mutant.notCaughtReason { lines.append("Not caught: `\(mutant.id)`: \(Self.cell(reason)).") }
        }
        lines.append("Released builds \(released.joined(separator: ", ")): \(releasedVerdict).")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table cell: no line breaks, and a `|` escaped.
    static func cell(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }).replacingOccurrences(of: "|", with: "\\|")
    }
}
