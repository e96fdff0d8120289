import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Ledger 3.0's automation: v2's seed and verify, with the migration date that starts the artefact
/// window (`vault.migratedAt`) stored and read beside v2's items.
extension LedgerAutomation {
    /// Writes the case's data as v3 and later keep it: v2's items, then the migration date.
    /// - Parameters:
    ///   - schemaVersion: the version to store.
    ///   - deviceKeyAccessible: the class of the automation device key (nil: the default class).
    ///   - malformed: a non-UTF-8 `authToken` and a `session` that is not JSON.
    ///   - migratedAt: the migration date to store.
    public static func seedKeychain(
        _ launch: HarnessLaunch, schemaVersion: Int, deviceKeyAccessible: String?,
        malformed: Bool, migratedAt: Date
    ) {
        seedKeychain(
            launch, schemaVersion: schemaVersion, deviceKeyAccessible: deviceKeyAccessible, malformed: malformed,
            laterItems: [(LedgerNames.migratedAtAccount, MigrationDate.encoded(migratedAt))])
    }

    /// Reads every item v3 and later keep: v2's, then the migration date (found when it parses).
    public static func verifyStampedKeychain(_ launch: HarnessLaunch) {
        verifyKeychain(launch) { launch in
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: LedgerNames.migratedAtAccount)
            let parses = data.flatMap(MigrationDate.decoded) != nil
            launch.record(
                LedgerNames.migratedAtAccount, .keychain, "SecItemCopyMatching", status,
                KeychainProbe.result(of: status, matches: parses))
        }
    }
}
