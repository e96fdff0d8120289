import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Ledger 3.0 (build 300, schema 3), frozen: v2's launch plus step 2 -> 3 (every item re-saved as
/// AfterFirstUnlockThisDeviceOnly), the migration date in the keychain, and the 30-day janitor of
/// non-secret artefacts. Its entitlements add a shared access group after the app's own, so new
/// items land where the old ones are and the old ones stay reachable.
public struct LedgerV3Build: AppBuild {
    public let buildID: String
    /// The steps of schema 3, in order; a known-bad variant replaces one.
    public var steps: @Sendable (LedgerParts) -> [any MigrationStep]
    /// Whether the launch runs the reinstall sweep first.
    public var sweeps = true

    public init(buildID: String = "v3") {
        self.buildID = buildID
        steps = { [$0.moveDefaults(), $0.moveArchive(), $0.tightenAccessibility()] }
    }

    public func launch(_ launch: HarnessLaunch) async {
        let parts = LedgerParts(launch)
        await LedgerLaunchSequence.run(launch, parts: parts, targetVersion: 3, steps: steps(parts), sweeps: sweeps)
    }

    public func seed(_ launch: HarnessLaunch) async {
        LedgerAutomation.seedKeychain(
            launch, schemaVersion: 3,
            deviceKeyAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
            malformed: false, migratedAt: launch.environment.now)
    }

    public func seedMalformed(_ launch: HarnessLaunch) async {
        LedgerAutomation.seedKeychain(
            launch, schemaVersion: 3,
            deviceKeyAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
            malformed: true, migratedAt: launch.environment.now)
    }

    public func verify(_ launch: HarnessLaunch) async {
        LedgerAutomation.verifyStampedKeychain(launch)
    }

    public func cleanup(_ launch: HarnessLaunch) async {
        LedgerAutomation.cleanupKeychain(launch, accounts: LedgerLaunchSequence.cleanupAccounts)
    }
}
