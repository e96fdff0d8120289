import LedgerRelease1

/// The name Ledger 3.0 introduced: the keychain account of the migration date.
extension LedgerNames {
    /// The keychain account of the migration date that starts the artefact window (v3).
    public static let migratedAtAccount = "vault.migratedAt"
}
