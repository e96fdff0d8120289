import Foundation
import GateModel
import SimRuntime
import SimSecurity
import SimSupervision

/// honest-status: every launch's status file is the contract's and tells the truth, judged here
/// alone from each launch's record (``LaunchRecord``: its bytes, its decoding, and where the case's
/// secrets were on the device right after it).
///
/// - The file decodes with the current contract version and is the canonical encoding of what it
///   decodes to (``LaunchStatus/encoded()``): no field, order or spacing outside the contract, so
///   nothing rides along that the runner does not read.
/// - It names the launch it comes from: its build, mode, case and runtime, and every item's runtime.
/// - Every result word stands beside a status the contract's table admits for it
///   (``ItemResult/admits(status:at:)``): no `found` with -25308, no `missing` with 0 in the keychain.
/// - Ground truth: a declared secret reported `found`, or `written` by a seed launch (``claims(_:of:labels:)``),
///   is on the device where the report says (a keychain item the app can reach, or a file or
///   preference of the app's), as the runner found its bytes there.
/// - The app made no file call outside its data container and app groups.
/// - At two clocks: the cells that run a path's plain sequence (fresh install, upgrade,
///   skip-version, late-upgrade) run again with every date moved (``ClockTwin``), and each seed,
///   plain and verify launch's status file must be the same bytes at both: nothing in them is the time.
///
/// The exploration scenarios' launches are judged per attempt by ``ExplorationInvariants``, which
/// applies ``problems(_:in:)``; the app's report is never what makes this condition pass, the
/// runner's reading of the file and the device is.
enum HonestStatus: LaunchChecker {
    static let condition = GateCondition.honestStatus

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if evidence.scenario.isExploration { return evidence.explorationFindings(condition) }
        var findings = launchFailures(evidence)
        var shifted = ""
        if evidence.secondClock {
            let twins = clockTwinFindings(evidence)
            guard let twins else {
                let reason = evidence.clockTwinFailure ?? "the cell's run at a second clock made no launch"
                return findings + [evidence.finding(condition, .unknown, reason)]
            }
            findings += twins.findings
            shifted = twins.pass
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

    /// Each launch against the same launch in the cell's run at a second clock: a FAIL where its
    /// status file is other bytes, or where only one of the two exited cleanly or ran at all; with
    /// the words of the PASS. Nil when the second run did not finish.
    private static func clockTwinFindings(_ evidence: CellEvidence) -> (findings: [GateFinding], pass: String)? {
        guard evidence.clockTwinFailure == nil, let seconds = evidence.clockTwins.first?.seconds else { return nil }
        var findings: [GateFinding] = []
        for twin in evidence.clockTwins {
            guard let launch = evidence.launches.first(where: { $0.stem == twin.stem }) else { continue }
            let moved = "with every date of the cell moved by \(Int(twin.seconds)) s"
            if launch.timedOut || twin.timedOut {
                findings.append(
                    evidence.finding(
                        condition, .unknown, item: twin.stem,
                        launch.timedOut
                            ? launch.timeoutReason : "\(moved), \(twin.stem) \(twin.termination) (timed out: UNKNOWN, not FAIL)"))
            } else if !twin.ran {
                findings.append(
                    evidence.finding(condition, .fail, item: twin.stem, "\(moved), the cell made no such launch"))
            } else if launch.exitedCleanly != twin.exitedCleanly {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: twin.stem,
                        "\(moved), the same launch \(twin.termination) (at the cell's clock: \(launch.termination))"))
            } else if launch.statusBytes != twin.statusBytes {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: twin.stem,
                        "\(moved), the status file differs from the launch at the cell's clock: it holds something "
                            + "not derived from the inputs (the time?)"))
            }
        }
        let pass =
            "; each of the \(evidence.clockTwins.count) launch(es) wrote the same bytes with every date of the cell "
            + "moved \(Int(seconds)) s"
        return (findings, pass)
    }

    /// What is wrong with `launch`'s status file, in the app's words; empty when it is honest.
    static func problems(_ launch: LaunchRecord, in cell: CellContext) -> [String] {
        fileProblems(launch, labels: cell.declarations.secretLabels)
            + sandboxProblems(launch.mutations, deviceDirectory: launch.deviceDirectory)
    }

    /// The declared secrets `status` claims are on the device, which the device can contradict:
    /// those reported `found`, and those reported `written` by a seed launch (the one mode that
    /// writes the case's own values: a plain launch moves whatever the device held, and
    /// `seedMalformed` writes wrong bytes on purpose). A launch that claims one has its device read
    /// right after it (``LaunchRecord/secretPlaces``).
    static func claims(_ status: LaunchStatus, of mode: LaunchMode, labels: [String]) -> [ItemCheck] {
        status.items.filter { item in
            labels.contains(item.name) && item.location != .arguments
                && (item.result == .found || (item.result == .written && mode == .seed))
        }
    }

    private static func fileProblems(_ launch: LaunchRecord, labels: [String]) -> [String] {
        guard let data = launch.statusBytes else {
            return launch.exitedCleanly ? ["the launch exited 0 but wrote no status file"] : []
        }
        guard let status = launch.status else {
            return [
                "not a status file of contract version \(LaunchStatus.currentFormat) (\(launch.statusDecodeFailure ?? ""))"
            ]
        }
        var problems: [String] = []
        if (try? status.encoded()) != data {
            problems.append("not the contract's encoding of what it holds (a field outside the contract, or another layout)")
        }
        let names = [
            ("build", status.build, launch.build), ("mode", status.mode.rawValue, launch.mode.rawValue),
            ("caseID", status.caseID, launch.caseID), ("runtime", status.runtime, launch.runtime.description),
        ]
        for (field, said, launched) in names where said != launched {
            problems.append("field \"\(field)\" says \(quoted(said)), but the launch was \(quoted(launched))")
        }
        for item in status.items + status.errors {
            if item.runtime != launch.runtime.description {
                problems.append("\(item.name): runtime \(quoted(item.runtime)), but the device runs \(launch.runtime)")
            }
            if !item.result.admits(status: item.status, at: item.location) {
                problems.append(
                    "\(item.name): \(item.result) with \(item.operation) \(SecurityStatus(item.status)) at \(item.location): "
                        + "the contract admits no such status for that word")
            }
        }
        return problems + groundTruth(status, launch, labels: labels)
    }

    /// Reports of declared secrets that the device contradicts.
    private static func groundTruth(_ status: LaunchStatus, _ launch: LaunchRecord, labels: [String]) -> [String] {
        let claims = claims(status, of: launch.mode, labels: labels)
        guard !claims.isEmpty else { return [] }
        if let failure = launch.secretPlacesFailure { return ["the device could not be read to check the report: \(failure)"] }
        // Not read: the runner was stopped right after the launch (its cell is UNKNOWN).
        guard let places = launch.secretPlaces else { return [] }
        return claims.compactMap { item in
            let wanted: SecretLocator.Place = item.location == .keychain ? .keychain : .legacy
            guard !places[item.name, default: []].contains(wanted) else { return nil }
            let place = item.location == .keychain ? "in no keychain item the app can reach" : "in none of the app's files"
            return "\(item.name): reported \(item.result) at \(item.location), but the case's value is \(place)"
        }
    }

    /// The app's file calls outside its data container and app groups (the file supervisor refused
    /// them with EPERM, as iOS's sandbox does): `wrote outside its container and app groups:
    /// /tmp/cache.plist (fs.open, refused with EPERM as iOS's sandbox refuses it)`. A path on the
    /// device itself is named from the device's folder (`<device>/...`), the same on every run.
    static func sandboxProblems(_ mutations: [SeamEntry], deviceDirectory: String) -> [String] {
        var seen = Set<String>()
        return mutations.compactMap { entry in
            guard entry.subject.store == FileSupervision.outsideStore, let name = entry.subject.name else { return nil }
            let path = name.hasPrefix(deviceDirectory + "/") ? "<device>" + name.dropFirst(deviceDirectory.count) : name
            let line =
                "wrote outside its container and app groups: \(path) (\(entry.operation.rawValue), refused with EPERM as iOS's sandbox refuses it)"
            return seen.insert(line).inserted ? line : nil
        }
    }

    private static func quoted(_ text: String) -> String { QuotedValue.text(text) }
}
