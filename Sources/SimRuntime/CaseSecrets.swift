import Foundation

/// The secrets of one test case: random-looking, different for every case, and the same every
/// time for the same case id, so the build that seeds and the build that verifies (separate
/// processes, separate releases) agree on them without ever writing them down, and the runner can
/// look for them in every artifact.
public struct CaseSecrets: Hashable, Sendable {
    public let caseID: String
    /// The legacy `authToken` preference (v1).
    public let authToken: String
    /// The legacy `refreshToken` preference (v1).
    public let refreshToken: String
    /// The session token inside the legacy NSKeyedArchiver archive (v1).
    public let sessionToken: String
    /// The value of v1's own keychain item.
    public let deviceKey: String

    /// Derives the case's secrets from its id (FNV-1a into SplitMix64).
    public init(caseID: String) {
        self.caseID = caseID
        var generator = SplitMix64(seed: Self.fnv1a(caseID))
        func token(_ prefix: String) -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            return prefix + String((0..<32).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
        }
        authToken = token("at_")
        refreshToken = token("rt_")
        sessionToken = token("st_")
        deviceKey = token("dk_")
    }

    /// Every secret with a label, in a fixed order (for leak scans and reports, which print labels only).
    /// A label is the logical name of the item that holds the secret, as status files name it.
    public var labelled: [(label: String, value: String)] {
        Array(zip(Self.labels, [authToken, refreshToken, sessionToken, deviceKey]))
    }

    /// The items that hold a case's secrets: `authToken`, `refreshToken`, `session`, `deviceKey`.
    public static let labels = ["authToken", "refreshToken", "session", "deviceKey"]

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
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
