import Foundation
import GateModel
import SimRuntime
import SimSecurity

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
/// - On an upgrade or skip-version path the verify runs once more with only the device clock moved,
///   and both status files must be the same bytes (``ClockShift``): nothing in them is the time.
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
        if [.upgrade, .skipVersion].contains(evidence.scenario) {
            guard let shift = evidence.clockShift else {
                return findings + [evidence.finding(condition, .unknown, "the clock-shifted verify did not run")]
            }
            let bytes = shift.stems.map { stem in evidence.launches.first { $0.stem == stem }?.statusBytes }
            if bytes[0] == nil || bytes[0] != bytes[1] {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: shift.stems[1],
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
