import UpgradeContract

/// One finding of a checker: a condition's verdict on one subject (a path, a scenario and
/// optionally an item), with a message that names the item, the operation, the OSStatus with its
/// name and the runtime. A finding never holds a secret value; checkers build messages from names only.
public struct GateFinding: Hashable, Codable, Sendable, Comparable {
    /// The condition judged.
    public package(set) var condition: GateCondition
    /// The path (`v1-to-v2`, `none-to-v3`, `iOS-15.0/v1-to-v2` in a matrix), or nil for a finding
    /// about the whole run.
    public package(set) var runtimePath: RuntimePath?
    /// The path's id, as documents and people name it.
    public var path: String? { runtimePath?.id }
    /// The scenario, or nil for a finding about the whole run.
    public package(set) var scenario: Scenario?
    /// The item concerned: a keychain item's name, a preference key, an artifact file.
    public package(set) var item: String?
    /// The verdict on this subject.
    public package(set) var verdict: Verdict
    /// The store operation concerned, such as `SecItemCopyMatching`.
    public package(set) var operation: String?
    /// The OSStatus the operation answered.
    public package(set) var status: Int32?
    /// The runtime that answered it; the same mistake answers different codes on different iOS versions.
    public package(set) var runtime: RuntimeVersion?
    /// One line for people; see ``describe(item:operation:status:runtime:detail:)``.
    public package(set) var message: String
    /// True for a hygiene warning: a FAIL that decides the verdict only under `--strict`; the engine
    /// judges it PASS otherwise and lists it in ``GateReport/warnings``. Nil (absent from gate.json)
    /// for every other finding.
    public package(set) var warning: Bool?
    /// What the finding is about, comparable across builds (``FindingKey``): a FAIL of the release is
    /// pre-existing only when its baseline has a FAIL with the same condition and key. Nil (absent
    /// from gate.json) for a finding no baseline can match, which therefore decides.
    public package(set) var key: FindingKey?
    /// True when the checker could not judge the cell (a stays-signed-in cell of a build that
    /// registers no startup read): its PASS proves nothing, and a condition with no judged cell is
    /// "not judged" (``GateReport/notJudged``), never PASS. Nil (absent from gate.json) otherwise.
    public package(set) var notJudged: Bool?

    /// A finding with the given fields; `message` defaults to one built by
    /// ``describe(item:operation:status:runtime:detail:statusText:)`` with the status as its bare
    /// number (the model has no keychain: the execution side words a status by its name).
    public init(
        _ condition: GateCondition, path: RuntimePath?, scenario: Scenario?, item: String? = nil,
        verdict: Verdict, operation: String? = nil, status: Int32? = nil,
        runtime: RuntimeVersion? = nil, detail: String, message: String? = nil, warning: Bool = false,
        key: FindingKey? = nil, notJudged: Bool = false
    ) {
        self.warning = warning ? true : nil
        self.key = key
        self.notJudged = notJudged ? true : nil
        self.condition = condition
        self.runtimePath = path
        self.scenario = scenario
        self.item = item
        self.verdict = verdict
        self.operation = operation
        self.status = status
        self.runtime = runtime
        self.message =
            message
            ?? Self.describe(
                item: item, operation: operation, status: status,
                runtime: runtime, detail: detail, statusText: { String($0) })
    }

    /// The document's keys: the path is stored as its id under `path`.
    private enum CodingKeys: String, CodingKey {
        case condition, runtimePath = "path", scenario, item, verdict, operation, status, runtime, message, key, notJudged
    }

    /// The cell this finding judges, when it names a path and a scenario.
    public var cell: GateCell? {
        guard let runtimePath, let scenario else { return nil }
        return GateCell(path: runtimePath, scenario: scenario, condition: condition)
    }

    /// Builds a one-line message: `authToken: SecItemAdd answered -25308 (errSecInteractionNotAllowed)
    /// on iOS 17.5: <detail>`. Line breaks in any part become spaces, so the message stays one line.
    /// - Parameter statusText: how a status reads (`-25308 (errSecInteractionNotAllowed)`).
    public static func describe(
        item: String?, operation: String?, status: Int32?, runtime: RuntimeVersion?,
        detail: String, statusText: (Int32) -> String
    ) -> String {
        var head: [String] = []
        if let item { head.append("\(item):") }
        if let operation {
            var clause = operation
            if let status { clause += " answered \(statusText(status))" }
            if let runtime { clause += " on \(runtime)" }
            head.append(clause + (detail.isEmpty ? "" : ":"))
        } else if let status {
            head.append("status \(statusText(status))" + (runtime.map { " on \($0)" } ?? "") + (detail.isEmpty ? "" : ":"))
        } else if let runtime {
            head.append("on \(runtime):")
        }
        if !detail.isEmpty { head.append(detail) }
        return oneLine(head.joined(separator: " "))
    }

    /// `text` with every line break and tab replaced by a space.
    package static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
    }

    /// Findings sort by path (whole-run findings last), scenario, condition, item, verdict and message.
    public static func < (lhs: GateFinding, rhs: GateFinding) -> Bool {
        func key(_ f: GateFinding) -> (String, Int, Int, String, Int, String) {
            (
                f.path ?? "\u{10FFFF}", f.scenario.map { Scenario.allCases.firstIndex(of: $0)! } ?? Int.max,
                GateCondition.allCases.firstIndex(of: f.condition)!, f.item ?? "", f.verdict.rank, f.message
            )
        }
        func tail(_ f: GateFinding) -> (String, Int64, String) {
            (f.operation ?? "", f.status.map(Int64.init) ?? Int64.min, f.runtime?.description ?? "")
        }
        let (a, b) = (key(lhs), key(rhs))
        return a != b ? a < b : tail(lhs) < tail(rhs)
    }
}

/// One expected judgement: a condition on a (path, scenario). A cell with no finding is UNKNOWN.
public struct GateCell: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The path.
    public package(set) var runtimePath: RuntimePath
    /// The path's id.
    public var path: String { runtimePath.id }
    /// The scenario run on that path.
    public package(set) var scenario: Scenario
    /// The condition the scenario checks.
    public package(set) var condition: GateCondition

    /// A cell.
    public init(path: RuntimePath, scenario: Scenario, condition: GateCondition) {
        self.runtimePath = path
        self.scenario = scenario
        self.condition = condition
    }

    /// The document's keys: the path is stored as its id under `path`.
    private enum CodingKeys: String, CodingKey {
        case runtimePath = "path", scenario, condition
    }

    /// `v1-to-v2/upgrade/reads-old-data`.
    public var description: String { "\(path)/\(scenario)/\(condition)" }

    /// Cells sort by path id, then scenario and condition in declaration order.
    public static func < (lhs: GateCell, rhs: GateCell) -> Bool {
        (lhs.runtimePath, lhs.scenario, lhs.condition) < (rhs.runtimePath, rhs.scenario, rhs.condition)
    }
}
