import GateModel
import SimRuntime
import UpgradeContract
import SimSupervision

/// How a place on the device protects a secret: a keychain item's protection class and whether it
/// syncs, or a file's data protection class (a preference is a file of the default class).
enum SecretProtection: Sendable, Hashable {
    case keychain(accessible: String, synchronizable: Bool)
    case file(FileProtection)

    /// Whether a keychain item of class `pdmn` stays on this device: a `ThisDeviceOnly` class
    /// (`aku`, `cku`, `dku`, `akpu`) is never in a backup that restores onto another device.
    static func thisDeviceOnly(_ pdmn: String) -> Bool { pdmn.hasSuffix("u") }

    /// A file class's strength, from the least protected: None, then until first authentication,
    /// unless open, complete.
    static func rank(_ protection: FileProtection) -> Int {
        switch protection {
        case .none: 0
        case .completeUntilFirstUserAuthentication: 1
        case .completeUnlessOpen: 2
        case .complete: 3
        }
    }

    /// Each way `new` protects a secret less than `old` did, as a finding words it; empty when it
    /// protects it at least as well. A move from a file into the keychain is never a widening.
    static func widenings(from old: SecretProtection, to new: SecretProtection) -> [String] {
        switch (old, new) {
        case (.keychain(let oldClass, let oldSync), .keychain(let newClass, let newSync)):
            var found: [String] = []
            if thisDeviceOnly(oldClass) && !thisDeviceOnly(newClass) {
                found.append("moved from a ThisDeviceOnly class (\(oldClass)) to one that travels in backups (\(newClass))")
            }
            if !oldSync && newSync { found.append("made synchronizable") }
            return found
        case (.keychain(let oldClass, _), .file(let protection)):
            return ["moved out of the keychain (\(oldClass)) into a plaintext file (\(protection.rawValue))"]
        case (.file(let oldProtection), .file(let newProtection)) where rank(newProtection) < rank(oldProtection):
            return ["its file's data protection lowered from \(oldProtection.rawValue) to \(newProtection.rawValue)"]
        default:
            return []
        }
    }
}

/// keeps-protection: after the upgrade each secret is protected at least as the old build (a route's
/// first build) protected it: not moved from a `ThisDeviceOnly` class to one that travels in backups,
/// not made synchronizable, not moved out of the keychain into a plaintext file or a preference, and
/// a file's data protection not lowered. Judged from the device, from locked-reads' facts (where the
/// old build kept each secret after the seed, where the new build keeps it after its first launch),
/// as keeps-availability is. A new build that declares `"protection": "widens"` with a reason
/// (``ProtectionPolicy/widens``) passes, and the finding lists each widening beside the reason.
enum KeepsProtection: CellChecker {
    static let condition = GateCondition.keepsProtection

    static func check(_ evidence: CellEvidence) -> [GateFinding] {
        if let problems = evidence.launchProblems(condition) { return problems }
        if let unseeded = evidence.nothingSeeded(condition) { return [unseeded] }
        guard let facts = evidence.lockedReads, !facts.availability.isEmpty else {
            return [evidence.finding(condition, .unknown, "the scenario did not read where the secrets are")]
        }
        // A secret missing before or after is keeps-availability's and reads-old-data's: nothing to compare here.
        let compared = facts.availability.compactMap { fact -> (String, SecretPlace, SecretPlace)? in
            guard let old = fact.old, let new = fact.new else { return nil }
            return (fact.label, old, new)
        }
        guard !compared.isEmpty else {
            return [
                evidence.finding(
                    condition, .unknown, "no secret was found both where the old build and where the new build keep it")
            ]
        }
        let declared = evidence.declarations.newPolicies.protection.flatMap { $0.policy == .widens ? $0 : nil }
        var widened: [String] = []
        var findings: [GateFinding] = []
        for (label, old, new) in compared {
            let ways = SecretProtection.widenings(from: old.protection, to: new.protection)
            guard !ways.isEmpty else { continue }
            let detail =
                ways.joined(separator: "; ")
                + ": the old build kept it in \(old.description), the new build in \(new.description)"
            if declared != nil {
                widened.append("\(label) \(detail)")
            } else {
                findings.append(
                    evidence.finding(
                        condition, .fail, item: label,
                        detail + " (declare \"protection\": \"widens\" with a reason if the team means it)"))
            }
        }
        guard findings.isEmpty else { return findings }
        let labels = compared.map(\.0).joined(separator: ", ")
        if let declared, !widened.isEmpty {
            return [
                evidence.finding(
                    condition, .pass,
                    "protection widened as declared (protection: widens, \"\(declared.reason)\"): "
                        + widened.joined(separator: "; "))
            ]
        }
        return [evidence.finding(condition, .pass, "every secret is protected at least as the old build protected it: \(labels)")]
    }
}
