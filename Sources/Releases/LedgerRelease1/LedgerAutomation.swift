import AppHarness
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Automation code the Ledger builds share, from Ledger 1.0 on: what a launch reports about the
/// legacy stores, and the automation device key every build keeps. Later releases add their modes
/// in extensions (LedgerRelease2's `LedgerAutomation.swift`). It reads values only to compare them;
/// it reports words.
public enum LedgerAutomation {
    /// The legacy stores as the launch leaves them; nil while protected data is unavailable (the
    /// preferences may read as empty then, which would look like "gone").
    public static func legacyState(_ environment: AppEnvironment) -> LegacyState? {
        guard environment.protectedData.isAvailable else { return nil }
        let stored = environment.defaults.persistentDomain()
        let files = environment.files
        return LegacyState(
            preferenceKeys: LedgerNames.legacyPreferenceKeys.filter { stored[$0] != nil },
            archive: files.fileExists(environment.applicationSupport.appendingPathComponent(LedgerNames.sessionArchive)),
            artefacts: LedgerNames.legacyArtefacts.filter { files.fileExists(environment.documents.appendingPathComponent($0)) })
    }

    /// Reads the automation device key where every build leaves it and compares it.
    public static func verifyDeviceKey(_ launch: HarnessLaunch) {
        let (status, data) = KeychainProbe.read(
            service: LedgerNames.deviceKeyService(launch.caseID),
            account: LedgerNames.deviceKeyAccount(launch.caseID))
        launch.recordRead(
            "deviceKey", .keychain, "SecItemCopyMatching", status, actual: data,
            expected: Data(launch.secrets.deviceKey.utf8))
    }

    /// Deletes the case's automation device key by exact service and account.
    public static func cleanupDeviceKey(_ launch: HarnessLaunch) {
        recordDelete(
            launch, "deviceKey",
            KeychainProbe.deleteExact(
                service: LedgerNames.deviceKeyService(launch.caseID),
                account: LedgerNames.deviceKeyAccount(launch.caseID)))
    }

    /// Records the outcome of deleting `name`: removed, missing (it was not there) or failed.
    public static func recordDelete(_ launch: HarnessLaunch, _ name: String, _ status: OSStatus) {
        let result: ItemResult =
            switch status {
            case errSecSuccess: .removed
            case errSecItemNotFound: .missing
            default: .failed
            }
        launch.record(name, .keychain, "SecItemDelete", status, result)
    }
}
