import Foundation
import SimRuntime

/// The names every Ledger release agrees on. Service and account never change after the first
/// release: a rename strands the old item (seed 000, "Orphaned items after a rename"). Each name
/// is owned by the release that introduced it: v1's are here, a later release's are in an
/// extension in its own library (LedgerRelease2's and LedgerRelease3's `LedgerNames.swift`).
public enum LedgerNames {
    /// The legacy preference keys that hold secrets (v1).
    public static let legacyPreferenceKeys = ["authToken", "refreshToken"]
    /// The legacy session archive, in Application Support (v1).
    public static let sessionArchive = "Session.archive"
    /// Non-secret legacy artefacts in Documents that wait for the 30-day window (v1).
    public static let legacyArtefacts = ["FeedCache.dat", "Preferences.plist", "SessionCache.archive"]

    /// The service of the automation-seeded device key: the case id as a suffix, as seed 003 asks,
    /// so leftovers of an interrupted case never make the next case pass.
    public static func deviceKeyService(_ caseID: String) -> String { "com.example.ledger.uitest.\(caseID)" }
    /// The account of the automation-seeded device key.
    public static func deviceKeyAccount(_ caseID: String) -> String { "deviceKey.\(caseID)" }
    /// The (non-secret) user id of a test case's session.
    public static func userID(_ caseID: String) -> String { "user-\(caseID)" }
}

/// Ledger's secrets by the labels its builds declare in `build.json` (`keeps.secrets`).
extension CaseSecrets {
    /// The legacy `authToken` preference (v1), later the keychain item `authToken`.
    public var authToken: String { self["authToken"] }
    /// The legacy `refreshToken` preference (v1), later the keychain item `refreshToken`.
    public var refreshToken: String { self["refreshToken"] }
    /// The session token, in v1's NSKeyedArchiver archive, later in the keychain item `session`.
    public var sessionToken: String { self["session"] }
    /// The value of the per-case automation device key every build keeps in the keychain.
    public var deviceKey: String { self["deviceKey"] }
}
