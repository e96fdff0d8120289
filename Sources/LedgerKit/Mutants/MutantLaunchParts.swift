import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
import LedgerRelease3
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

/// Mutant `janitor-drops-session`: after the 30-day window (counted from `vault.migratedAt`, as
/// ``LegacyArtefactJanitor`` counts it) the janitor also deletes the `session` keychain item, taking
/// it for the legacy `SessionCache.archive` it removes: the user is signed out a month after the
/// upgrade, on a launch no upgrade check sees.
public enum SessionCacheJanitor {
    public static func dropSessionAfterWindow(_ launch: HarnessLaunch) {
        guard launch.environment.protectedData.isAvailable else { return }
        let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: LedgerNames.migratedAtAccount)
        guard status == errSecSuccess, let data, MigrationDate.windowElapsed(since: data, now: launch.environment.now)
        else { return }
        let deleted = KeychainProbe.deleteExact(service: LedgerNames.service, account: LedgerNames.sessionAccount)
        if deleted == errSecSuccess { launch.record(LedgerNames.sessionAccount, .keychain, "SecItemDelete", deleted, .removed) }
    }
}

/// Mutant `stale-artefacts-resync`: v1's non-secret artefacts in Documents, still there at a
/// stored schema 2, are taken for a v1 migration that never finished; the "resync" then reads a
/// legacy preference that is gone as a signed-out user and deletes its keychain item. A v2 device
/// seeded as v2 has no artefacts, a v1 device upgraded straight to v3 has its preferences (and no
/// schema 2): only the route v1 -> v2 -> v3 meets it.
public enum LegacyResync {
    public static func resyncIfArtefactsRemain(_ launch: HarnessLaunch) {
        let environment = launch.environment
        guard environment.protectedData.isAvailable, LedgerAutomation.storedSchemaVersion() == 2 else { return }
        let files = environment.files
        guard LedgerNames.legacyArtefacts.contains(where: { files.fileExists(environment.documents.appendingPathComponent($0)) })
        else { return }
        let stored = environment.defaults.persistentDomain()
        for key in LedgerNames.legacyPreferenceKeys where stored[key] == nil {
            let deleted = KeychainProbe.deleteExact(service: LedgerNames.service, account: key)
            if deleted == errSecSuccess { launch.record(key, .keychain, "SecItemDelete", deleted, .removed) }
        }
    }
}

/// Mutant `restore-wipes-keychain`: a "keychain consistency guard" at the start of every launch.
/// An install that has run before (the install marker in preferences) and is keychain-era (none of
/// v1's legacy files left in Documents, so no v1 migration can be half done) must hold its schema
/// version; when it does not, the team took it for a keychain reset under the app and deletes every
/// keychain item so the user starts clean. The schema version is `…ThisDeviceOnly`: a backup
/// restored onto a new phone brings the marker and every item of a class that travels (the device
/// key) but never the version, so each restore wipes the credentials that did travel. On the
/// device itself the guard never fires: the version stays with the items.
public enum KeychainConsistencyGuard {
    public static func wipeIfVersionMissing(_ launch: HarnessLaunch) {
        let environment = launch.environment
        guard environment.protectedData.isAvailable, environment.defaults.bool(forKey: LedgerNames.installMarkerKey)
        else { return }
        let files = environment.files
        guard !LedgerNames.legacyArtefacts.contains(where: { files.fileExists(environment.documents.appendingPathComponent($0)) })
        else { return }
        let (status, _) = KeychainProbe.read(service: LedgerNames.service, account: LedgerNames.versionAccount)
        guard status == errSecItemNotFound else { return }
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            let scope: [CFString: Any] = [kSecClass: itemClass, kSecAttrSynchronizable: kSecAttrSynchronizableAny]
            let deleted = SecItemDelete(scope as CFDictionary)
            if deleted == errSecSuccess { launch.record(itemClass as String, .keychain, "SecItemDelete", deleted, .removed) }
        }
    }
}

/// Mutant `sweep-misses-own-marker`: the release mirrors its install marker into the keychain
/// (`vault.installMarker`, beside the preference) and, at the start of a launch, puts a preference
/// marker lost with the container back from that copy, "so an install is never swept twice". The
/// keychain outlives the app: after the user deletes and reinstalls this release, the copy says
/// "installed", the sweep meets its marker, and the old session comes back. Older releases kept no
/// copy, so a reinstall over one of them is swept as it should be.
public enum KeychainInstallMarker {
    /// The keychain copy's account (service ``LedgerNames/service``).
    public static let account = "vault.installMarker"

    /// Puts the preference marker back from the keychain copy when the preferences lack it.
    public static func restoreMarker(_ launch: HarnessLaunch) {
        let defaults = launch.environment.defaults
        guard launch.environment.protectedData.isAvailable, !defaults.bool(forKey: LedgerNames.installMarkerKey) else { return }
        let (status, _) = KeychainProbe.read(service: LedgerNames.service, account: account)
        if status == errSecSuccess { defaults.set(true, forKey: LedgerNames.installMarkerKey) }
    }

    /// Writes the keychain copy (ThisDeviceOnly, as the release's other items) when it is missing.
    public static func mirrorMarker(_ launch: HarnessLaunch) {
        guard launch.environment.defaults.bool(forKey: LedgerNames.installMarkerKey) else { return }
        let (status, _) = KeychainProbe.read(service: LedgerNames.service, account: account)
        guard status == errSecItemNotFound else { return }
        _ = KeychainProbe.addOrUpdate(
            Data("1".utf8), service: LedgerNames.service, account: account,
            accessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
    }
}
