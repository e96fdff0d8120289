import Foundation

/// Product decisions a build declares, each with the reason a reviewer reads in the summary: the
/// `policies` field of its `build.json`. A policy changes what a gate condition requires, and only
/// in the way its case documents; the set is closed, so an unknown topic or value is bad input
/// (the build is refused, naming the field), never silently ignored.
///
/// ```json
/// "policies": {
///   "reinstall": {"policy": "keeps-credentials", "reason": "a reinstall keeps the user signed in (product decision)"},
///   "protection": {"policy": "widens", "reason": "tokens now sync to the user's other devices (product decision)"}
/// }
/// ```
///
/// A policy the new build declares and the old one did not is a product change: the summary shows
/// it for review, and it is not a failure.
public struct BuildPolicies: Codable, Hashable, Sendable {
    /// What a reinstall does to the previous install's credentials. Absent: ``ReinstallPolicy/sweeps``.
    public var reinstall: Declared<ReinstallPolicy>?
    /// Whether the build may keep a secret less protected than the build before it. Absent:
    /// ``ProtectionPolicy/keeps``.
    public var protection: Declared<ProtectionPolicy>?

    public init(reinstall: Declared<ReinstallPolicy>? = nil, protection: Declared<ProtectionPolicy>?) {
        self.reinstall = reinstall
        self.protection = protection
    }

    /// The policies of 0.9.0, which had the reinstall topic alone (kept so that its callers compile).
    public init(reinstall: Declared<ReinstallPolicy>? = nil) {
        self.init(reinstall: reinstall, protection: nil)
    }

    /// The topics, as `policies` spells its keys.
    public static let topics = ["reinstall", "protection"]

    /// The reinstall policy in force: the declared one, else ``ReinstallPolicy/sweeps``.
    public var reinstallPolicy: ReinstallPolicy { reinstall?.policy ?? .sweeps }

    /// The protection policy in force: the declared one, else ``ProtectionPolicy/keeps``.
    public var protectionPolicy: ProtectionPolicy { protection?.policy ?? .keeps }

    /// Every declared policy as `(topic, value, reason)`, in ``topics`` order.
    public var declared: [(topic: String, policy: String, reason: String)] {
        (reinstall.map { [("reinstall", $0.policy.rawValue, $0.reason)] } ?? [])
            + (protection.map { [("protection", $0.policy.rawValue, $0.reason)] } ?? [])
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private enum CodingKeys: String, CodingKey { case reinstall, protection }

    public init(from decoder: any Decoder) throws {
        let all = try decoder.container(keyedBy: AnyKey.self)
        for key in all.allKeys where !Self.topics.contains(key.stringValue) {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: all,
                debugDescription: "\"\(key.stringValue)\" is no policy topic (known: \(Self.topics.joined(separator: ", ")))")
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        reinstall = try container.decodeIfPresent(Declared<ReinstallPolicy>.self, forKey: .reinstall)
        protection = try container.decodeIfPresent(Declared<ProtectionPolicy>.self, forKey: .protection)
    }

    /// One declared policy: its value and why the team chose it.
    public struct Declared<Value: PolicyValue>: Codable, Hashable, Sendable {
        public var policy: Value
        /// Why: shown beside the policy in the summary. Required and not blank.
        public var reason: String

        public init(_ policy: Value, reason: String) {
            self.policy = policy
            self.reason = reason
        }

        private enum CodingKeys: String, CodingKey { case policy, reason }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let word = try container.decode(String.self, forKey: .policy)
            guard let policy = Value(rawValue: word) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .policy, in: container,
                    debugDescription: "\"\(word)\" is not one of \(Value.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let reason = try container.decode(String.self, forKey: .reason)
            guard !reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .reason, in: container, debugDescription: "is empty: say why the team chose this policy")
            }
            self.policy = policy
            self.reason = reason
        }
    }
}

/// A policy's closed set of values.
public protocol PolicyValue: RawRepresentable<String>, CaseIterable, Codable, Hashable, Sendable {}

/// What a reinstall does to the previous install's keychain items (iOS keeps them when an app is
/// deleted; the app decides on its first launch).
public enum ReinstallPolicy: String, PolicyValue {
    /// The first launch of a fresh install removes what the previous install left (seed 000's
    /// recommendation): reinstall-sweeps checks that nothing of the old session survives or is read.
    case sweeps
    /// The app keeps the user signed in across a reinstall, on purpose: reinstall-sweeps checks that
    /// what is kept is the previous install's own, unchanged, and that what the app reads is that
    /// install's own values; it no longer checks that the items are gone.
    case keepsCredentials = "keeps-credentials"
}

/// Whether a build may keep a secret less protected than the build before it kept it
/// (keeps-protection): moved from a `ThisDeviceOnly` class to one that travels in backups, made
/// synchronizable, moved out of the keychain into a file or a preference, or kept in a file of a
/// lower data protection class.
public enum ProtectionPolicy: String, PolicyValue {
    /// Every secret keeps at least the protection the previous build gave it: keeps-protection fails a widening.
    case keeps
    /// The team widens a secret's protection on purpose (tokens that now sync to the user's other
    /// devices, say): keeps-protection lists each widening beside the reason and passes it.
    case widens
}
