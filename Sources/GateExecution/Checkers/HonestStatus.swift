import GateModel
import SimRuntime

/// honest-status: every launch's status file is the contract's and tells the truth. It decodes with
/// the current contract version and is its canonical encoding; it names its own build, mode, case
/// and runtime; each result word stands beside a status the contract admits for it; a secret it
/// reports found or written is on the device where it says (``StatusHonesty``, checked right after
/// each launch). On an upgrade or skip-version path the verify runs once more with the device clock
/// moved, and both status files must be the same bytes (``ClockShift``): nothing in them is the time.
///
/// The exploration scenarios judge the launches of every attempt; the app's report is never what
/// makes this condition pass, the runner's reading of the file and the device is.
enum HonestStatus: CellChecker {
    static let condition = GateCondition.honestStatus

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if evidence.scenario.isExploration {
            return evidence.explorationFindings(condition, counting: [condition])
        }
        var findings: [GateFinding] = []
        for record in evidence.launches {
            for problem in record.dishonesty {
                findings.append(evidence.finding(condition, .fail, item: record.stem, problem))
            }
        }
        var shifted = ""
        if [.upgrade, .skipVersion].contains(evidence.scenario) {
            guard let shift = evidence.clockShift else {
                return findings + [evidence.finding(condition, .unknown, "the clock-shifted verify did not run")]
            }
            if !shift.identical {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: shift.stems.last,
                        "with only the device clock moved by \(Int(shift.seconds)) s, the verify status file "
                            + "differs from \(shift.stems[0]): it holds something not derived from the inputs (the time?)"))
            }
            shifted = "; the verify's status file is the same bytes with the clock moved \(Int(shift.seconds)) s"
        }
        if findings.isEmpty {
            let files = evidence.launches.filter { $0.status != nil }.count
            findings.append(
                evidence.finding(
                    condition, .pass,
                    "\(files) status file(s) of contract version \(LaunchStatus.currentFormat), canonical, "
                        + "their words agreeing with their OSStatus and the device" + shifted))
        }
        return findings
    }
}
