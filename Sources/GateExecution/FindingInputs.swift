import GateModel
import UpgradeContract

/// Names in each deciding finding the input that produced it, where its message does not say it yet:
/// the shape its secret was seeded in (`(seeded as utf8-nfd)`), the clock the new build first launched
/// at (`(clock +412 d)`). Seed variants, malformed stores, faults and attempts are the finding's item
/// (`without file Documents/Settings.plist:`, `token alone:`), which its message begins with.
///
/// Only findings that are not PASS are named so: a PASS decides nothing, and its message stays as it
/// was. Derived from the case id and the cell alone, so the same inputs give the same words.
enum FindingInputs {
    static func named(_ findings: [GateFinding], in evidence: CellEvidence) -> [GateFinding] {
        let declarations = evidence.declarations
        // A label whose bytes the build asked for as text was seeded as its alnum value (CaseSecrets).
        let askedAsText = Set(evidence.launches.flatMap { $0.status?.textReadsOfBytes ?? [] })
        return findings.map { finding in
            guard finding.verdict != .pass else { return finding }
            var clauses: [String] = []
            if let label = finding.item.flatMap({ declarations.shapes[$0] == nil ? nil : $0 }),
                let shape = declarations.shapes[label], shape != .alnum, !finding.message.contains("seeded as")
            {
                clauses.append(
                    shape == .bytes && askedAsText.contains(label)
                        ? "seeded as alnum: bytes skipped, the build writes text" : "seeded as \(shape)")
            }
            if evidence.scenario == .lateUpgrade, !finding.message.contains("clock +") {
                clauses.append("clock +\(Int(LateUpgradeSteps.offset(caseID: evidence.caseID) / 86_400)) d")
            }
            guard !clauses.isEmpty else { return finding }
            var named = finding
            named.message += " (" + clauses.joined(separator: ", ") + ")"
            return named
        }
    }
}
