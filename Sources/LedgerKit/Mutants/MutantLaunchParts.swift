import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Mutant `locked-read-deletes`: a session restore at the start of every launch that reads each
/// credential and deletes it when the read does not succeed. While the device is locked the read
/// answers `errSecInteractionNotAllowed` (-25308), the delete still succeeds, and a valid token is
/// gone (seed 000, "Locked devices and background launches").
public enum SessionRestore {
    /// Reads the app's credentials (and the device key an older release left) and deletes what did not read.
    public static func restoreOrDelete(_ launch: HarnessLaunch) {
        var targets = [LedgerNames.legacyPreferenceKeys + [LedgerNames.sessionAccount]]
            .flatMap { $0 }.map { (LedgerNames.service, $0, $0) }
        targets.append((LedgerNames.deviceKeyService(launch.caseID), LedgerNames.deviceKeyAccount(launch.caseID), "deviceKey"))
        for (service, account, name) in targets {
            let (status, _) = KeychainProbe.read(service: service, account: account)
            guard status != errSecSuccess else { continue }
            let deleted = KeychainProbe.deleteExact(service: service, account: account)
            if deleted == errSecSuccess { launch.record(name, .keychain, "SecItemDelete", deleted, .removed) }
        }
    }
}

/// Mutant `sweep-before-unlock`: seed 000's reinstall sweep without its wait for protected data.
/// In a prewarmed launch before first unlock the preferences read as empty, the install marker
/// looks unset, and every keychain item is deleted (a delete succeeds while locked): the
/// "mass log-out" of iOS 15.
public actor EagerReinstallSweeper {
    private let defaults: any AppDefaults
    private let journal: any LaunchJournal

    public init(defaults: any AppDefaults, journal: any LaunchJournal) {
        self.defaults = defaults
        self.journal = journal
    }

    public func sweepIfFreshInstall() -> SweepOutcome {
        guard !defaults.bool(forKey: LedgerNames.installMarkerKey) else { return .markerPresent }
        let upgrade = !defaults.persistentDomain().isEmpty
        if !upgrade {
            for itemClass in [
                kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey,
                kSecClassIdentity,
            ] {
                let scope: [CFString: Any] = [kSecClass: itemClass, kSecAttrSynchronizable: kSecAttrSynchronizableAny]
                let status = SecItemDelete(scope as CFDictionary)
                guard status == errSecSuccess || status == errSecItemNotFound else {
                    journal.recordError(itemClass as String, .keychain, "SecItemDelete", status)
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
