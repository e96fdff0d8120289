import Foundation
import SimRuntime

/// The names every Ledger release agrees on. Service and account never change after the first
/// release: a rename strands the old item (seed 000, "Orphaned items after a rename").
public enum LedgerNames {
    /// `kSecAttrService` of the app's own items (migrated tokens, session, schema version, stamp).
    public static let service = "com.example.ledger"
    /// The legacy preference keys that hold secrets (v1).
    public static let legacyPreferenceKeys = ["authToken", "refreshToken"]
    /// The keychain account of the migrated session (v2 and later).
    public static let sessionAccount = "session"
    /// The keychain account of the schema version.
    public static let versionAccount = "vault.schemaVersion"
    /// The keychain account of the migration date that starts the artefact window (v3).
    public static let migratedAtAccount = "vault.migratedAt"
    /// The preference key of the reinstall marker (v2 and later).
    public static let installMarkerKey = "vault.installMarker"
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
