/// A verdict: PASS, FAIL or UNKNOWN, modelled on Jepsen's `:valid?` (true, false, `:unknown`) and
/// in-toto's test-result predicate. It fails closed: nothing is PASS unless it was checked and passed.
public enum Verdict: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    case pass = "PASS"
    case fail = "FAIL"
    case unknown = "UNKNOWN"

    /// `PASS`, `FAIL` or `UNKNOWN`.
    public var description: String { rawValue }

    /// The process exit code this verdict gives (docs/architecture.md, "Errors and exit codes"): 0 PASS, 1 FAIL, 3 UNKNOWN.
    public var exitCode: Int32 {
        switch self {
        case .pass: 0
        case .fail: 1
        case .unknown: 3
        }
    }

    /// Combines verdicts, failing closed: any FAIL gives FAIL; else any UNKNOWN gives UNKNOWN;
    /// else PASS. An empty collection gives UNKNOWN, because nothing was checked.
    public static func combine<S: Sequence>(_ verdicts: S) -> Verdict where S.Element == Verdict {
        var sawAny = false
        var sawUnknown = false
        for verdict in verdicts {
            sawAny = true
            switch verdict {
            case .fail: return .fail
            case .unknown: sawUnknown = true
            case .pass: break
            }
        }
        return sawAny && !sawUnknown ? .pass : .unknown
    }

    /// Severity for sorting: FAIL first, then UNKNOWN, then PASS.
    var rank: Int {
        switch self {
        case .fail: 0
        case .unknown: 1
        case .pass: 2
        }
    }
}
