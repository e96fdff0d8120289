import LedgerRelease1

/// The names Ledger 2.0 introduced: the service of the app's own keychain items, the accounts of
/// the migrated session and of the schema version, and the reinstall marker.
extension LedgerNames {
    /// `kSecAttrService` of the app's own items (migrated tokens, session, schema version, stamp).
    public static let service = "com.example.ledger"
    /// The keychain account of the migrated session (v2 and later).
    public static let sessionAccount = "session"
    /// The keychain account of the schema version.
    public static let versionAccount = "vault.schemaVersion"
    /// The preference key of the reinstall marker (v2 and later).
    public static let installMarkerKey = "vault.installMarker"
}
