import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// The `honest-status` check of one launch's status file, made right after the launch while the
/// device still holds what the launch left: the app's word is held to the contract and to the device.
///
/// - The file decodes with the current contract version and is the canonical encoding of what it
///   decodes to (``LaunchStatus/encoded()``): no field, order or spacing outside the contract, so
///   nothing rides along that the runner does not read.
/// - It names the launch it comes from: its build, mode, case and runtime, and every item's runtime.
/// - Every result word stands beside a status the contract's table admits for it
///   (``ItemResult/admits(status:at:)``): no `found` with -25308, no `missing` with 0 in the keychain.
/// - Ground truth: a declared secret reported `found`, or `written` by a seed launch (the one mode
///   that writes the case's own values: a plain launch moves whatever the device held, and
///   `seedMalformed` writes wrong bytes on purpose), is on the device where the report says (a keychain item the app can reach, or
///   a file or preference of the app's), as the runner finds its bytes there.
///
/// What the file must not hold that is not derived from the inputs (the clock) is proven by the
/// clock-shifted verify of the upgrade scenarios (``ClockShift``).
struct StatusHonesty {
    /// The launch the file comes from.
    let build: Build
    let mode: LaunchMode
    let caseID: String
    let runtime: RuntimeVersion
    /// The case's declared secret labels (either build's).
    let labels: [String]

    /// The problems of `data` (nil: the launch left no status file), in the app's words; empty
    /// when the file is honest. `decoded` is the launch's one decoding of `data` (made here when
    /// nil); `places`, where the case's secrets already were found on the device after the launch
    /// (looked for here when nil).
    func problems(
        _ data: Data?, decoded: Result<LaunchStatus, any Error>? = nil, exitedCleanly: Bool, on device: Device,
        places: [String: SecretLocator.Place]? = nil
    ) -> [String] {
        guard let data else { return exitedCleanly ? ["the launch exited 0 but wrote no status file"] : [] }
        let status: LaunchStatus
        switch decoded ?? Result(catching: { try LaunchStatus.decode(data) }) {
        case .success(let value): status = value
        case .failure(let error):
            return ["not a status file of contract version \(LaunchStatus.currentFormat) (\(JSONProblem.describe(error)))"]
        }
        var problems: [String] = []
        if (try? status.encoded()) != data {
            problems.append("not the contract's encoding of what it holds (a field outside the contract, or another layout)")
        }
        let names = [
            ("build", status.build, build.manifest.id), ("mode", status.mode.rawValue, mode.rawValue),
            ("caseID", status.caseID, caseID), ("runtime", status.runtime, runtime.description),
        ]
        for (field, said, launched) in names where said != launched {
            problems.append("field \"\(field)\" says \(Self.quoted(said)), but the launch was \(Self.quoted(launched))")
        }
        for item in status.items + status.errors {
            if item.runtime != runtime.description {
                problems.append("\(item.name): runtime \(Self.quoted(item.runtime)), but the device runs \(runtime)")
            }
            if !item.result.admits(status: item.status, at: item.location) {
                problems.append(
                    "\(item.name): \(item.result) with \(item.operation) \(SecurityStatus(item.status)) at \(item.location): "
                        + "the contract admits no such status for that word")
            }
        }
        problems += groundTruth(status, on: device, places: places)
        return problems
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
            let line = "wrote outside its container and app groups: \(path) (\(entry.operation.rawValue), refused with EPERM as iOS's sandbox refuses it)"
            return seen.insert(line).inserted ? line : nil
        }
    }

    /// Reports of declared secrets that the device contradicts.
    private func groundTruth(
        _ status: LaunchStatus, on device: Device, places known: [String: SecretLocator.Place]?
    ) -> [String] {
        let claims = status.items.filter { item in
            labels.contains(item.name) && item.location != .arguments
                && (item.result == .found || (item.result == .written && mode == .seed))
        }
        guard !claims.isEmpty else { return [] }
        let places: [String: SecretLocator.Place]
        do {
            places = try known ?? SecretLocator(caseID: caseID, labels: claims.map(\.name)).locate(on: device, app: build)
        } catch {
            return ["the device could not be read to check the report: \(error)"]
        }
        return claims.compactMap { item in
            let wanted: SecretLocator.Place = item.location == .keychain ? .keychain : .legacy
            guard !places[item.name, default: []].contains(wanted) else { return nil }
            let place = item.location == .keychain ? "in no keychain item the app can reach" : "in none of the app's files"
            return "\(item.name): reported \(item.result) at \(item.location), but the case's value is \(place)"
        }
    }

    private static func quoted(_ text: String) -> String { QuotedValue.text(text) }
}

/// The clock-shifted verify of an upgrade scenario: the same verify launched again with only the
/// device clock moved, by an offset derived from the case id (so a replay shifts it the same way).
/// A status file holds nothing that is not derived from the inputs, so the two must be byte-identical.
struct ClockShift: Sendable, Equatable {
    /// How far the clock moved, in seconds.
    var seconds: Double
    /// The two verify launches' stems (`03-v2-verify`, `04-v2-verify`).
    var stems: [String]
    /// Whether both left a status file with the same bytes.
    var identical: Bool

    /// Between 1 and 400 days, and some seconds besides, from the case id alone.
    static func offset(caseID: String) -> Double {
        var generator = SplitMix64(seed: Array(caseID.utf8).reduce(0xC10C_5EED) { ($0 &* 31) &+ UInt64($1) })
        return Double(86_400 + generator.next() % (399 * 86_400))
    }
}
