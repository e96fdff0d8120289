import Foundation

/// The secret values of one test case, one per label a build declares: random-looking, different
/// for every case and label, and the same every time for the same case id and label. So the build
/// that seeds and the build that verifies (separate processes, separate releases) agree on them
/// without ever writing them down, and the runner can look for them in every artifact.
///
/// Each value derives from the case id and the label alone (FNV-1a of both into SplitMix64), so
/// declaring a new label changes no other label's value.
public struct CaseSecrets: Hashable, Sendable {
    public let caseID: String

    public init(caseID: String) { self.caseID = caseID }

    /// The value of the secret `label` in this case: 32 letters and digits.
    public subscript(_ label: String) -> String {
        var generator = SplitMix64(seed: Self.fnv1a(caseID + "\u{0}" + label))
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<32).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
    }

    /// The value of `label` as bytes (UTF-8), as a keychain item or a file holds it.
    public func data(_ label: String) -> Data { Data(self[label].utf8) }

    /// Each of `labels` with its value, in the order given (for leak scans, which print labels only).
    public func labelled(_ labels: [String]) -> [(label: String, value: String)] {
        labels.map { ($0, self[$0]) }
    }

    /// A new random case id (used when none is given): 12 lowercase hex digits.
    public static func randomCaseID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%012llx", generator.next() & 0xFFFF_FFFF_FFFF)
    }

    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
