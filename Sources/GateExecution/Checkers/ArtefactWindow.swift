import GateModel
/// artefact-window: non-secret legacy artefacts the migration left stay for the rollback window
/// (checked at day 29) and, for a build that declares a window, are gone after it (day 31).
enum ArtefactWindow: CellChecker {
    static let condition = GateCondition.artefactWindow

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        guard let seeded = evidence.snapshots[.afterSeed], let migrated = evidence.snapshots[.afterFirstLaunch],
            let day29 = evidence.snapshots[.day29], let day31 = evidence.snapshots[.day31]
        else {
            return [evidence.finding(condition, .unknown, "the scenario did not finish")]
        }
        // The artefacts: files the old build wrote that the migration left in place.
        let artefacts = seeded.files.filter { migrated.files[$0.key] == $0.value }.keys.sorted()
        guard !artefacts.isEmpty else {
            return [evidence.finding(condition, .pass, "the old build left no legacy artefacts")]
        }
        var findings: [GateFinding] = []
        for name in artefacts where day29.files[name] == nil {
            findings.append(
                evidence.finding(
                    condition, .fail, item: name, "removed before the 30-day window ended",
                    key: FindingKey(name, in: .file, .removedEarly)))
        }
        if let window = evidence.artefactWindowDays {
            for name in artefacts where day31.files[name] != nil {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: name, "still present after the \(window)-day window",
                        key: FindingKey(name, in: .file, .keptTooLong)))
            }
        }
        if findings.isEmpty {
            findings.append(
                evidence.finding(
                    condition, .pass,
                    evidence.artefactWindowDays == nil
                        ? "\(artefacts.count) artefact(s) kept (the build declares no cleanup window)"
                        : "\(artefacts.count) artefact(s) kept at day 29 and removed by day 31"))
        }
        return findings
    }
}
