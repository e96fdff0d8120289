import AppHarness
import SimRuntime
import Foundation
import LedgerRelease1
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// What the reinstall sweep did in one launch: the contract's words (the status file's `sweep`):
/// `swept` (a fresh install over old keychain data: every class deleted, then the marker set),
/// `markerPresent` (not a fresh install), `markedUpgrade` (no marker, but the container kept an
/// earlier build's preferences: marked, nothing deleted), `deferred` (protected data did not become
/// available in time: nothing read or deleted), `failed` (a delete failed: the marker stays unset,
/// so the sweep runs again next launch).
public typealias SweepOutcome = SweepResult

/// Seed 000's reinstall sweep: before anything touches the keychain, and after protected data is
/// readable, a missing install marker means "fresh install over old data", and every item goes.
///
/// One addition to the seed's code: a release that introduces the marker cannot tell an upgrade
/// from a build without one (v1) from a fresh install by the marker alone. An upgrade in place
/// keeps the data container, so stored preferences without a marker mean "upgrade": the marker is
/// set and nothing is deleted. A reinstall loses the container, so its preferences are empty.
public actor ReinstallSweeper {
    private let defaults: any AppDefaults
    private let protectedData: any ProtectedDataGate
    private let journal: any LaunchJournal
    private let timeout: Double
    private let itemClasses: [String]
    private let localOnly: Bool

    /// - Parameter genericPasswordsOnly: the anti-pattern of mutant `sweep-generic-only`: delete
    ///   only local generic passwords, leaving synchronizable items and every other class behind.
    public init(
        defaults: any AppDefaults, protectedData: any ProtectedDataGate, journal: any LaunchJournal,
        timeout: Double, genericPasswordsOnly: Bool = false
    ) {
        self.defaults = defaults
        self.protectedData = protectedData
        self.journal = journal
        self.timeout = timeout
        itemClasses =
            genericPasswordsOnly
            ? [kSecClassGenericPassword as String]
            : [
                kSecClassGenericPassword as String, kSecClassInternetPassword as String,
                kSecClassCertificate as String, kSecClassKey as String, kSecClassIdentity as String,
            ]
        localOnly = genericPasswordsOnly
    }

    public func sweepIfFreshInstall() async -> SweepOutcome {
        guard await protectedData.waitUntilAvailable(timeout: timeout) else { return .deferred }
        guard !defaults.bool(forKey: LedgerNames.installMarkerKey) else { return .markerPresent }
        let upgrade = !defaults.persistentDomain().isEmpty
        if !upgrade {
            for itemClass in itemClasses {
                var scope: [CFString: Any] = [
                    kSecClass: itemClass as CFString,
                    kSecAttrSynchronizable: kSecAttrSynchronizableAny,
                ]
                if localOnly { scope[kSecAttrSynchronizable] = nil }
                let status = SecItemDelete(scope as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else {
                    journal.recordError(itemClass, .keychain, "SecItemDelete", status)
                    return .failed
                }
            }
        }
        guard defaults.set(true, forKey: LedgerNames.installMarkerKey) else {
            journal.recordError(LedgerNames.installMarkerKey, .preferences, "set", EPERM)
            return .failed
        }
        return upgrade ? .markedUpgrade : .swept
    }
}
