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

/// Ledger 5.0 (build 500, schema 5), the first release signed by the new team after the app
/// transfer. v3's launch; step 3 -> 4 (the bridge) has nothing to do here, since the old team's
/// groups are out of reach; step 4 -> 5 imports every item the bridge left in the app group into
/// the new team's own group (copy, read back, delete the temporary copy), so the app keeps its
/// items where an item added without a group lands, and the app group is empty again.
///
/// A user who skips the bridge release arrives with every item in the old team's groups: this
/// build cannot reach them, and only the legacy stores of v1 (preferences, archive) still migrate.
public struct LedgerTransferBuild: AppBuild {
    public let buildID: String

    /// The first new-team release compiled as `buildID`.
    public init(buildID: String = "v5-transfer") { self.buildID = buildID }

    public func launch(_ launch: HarnessLaunch) async {
        let parts = LedgerParts(launch)
        // v3's steps, the bridge's version (nothing to do here), then the import from the group.
        let steps =
            LedgerV3Build().steps(parts) + [
                NothingToDoStep(from: 3), MoveAccessGroupStep(from: 4, move: .importing(journal: launch)),
            ]
        await LedgerLaunchSequence.run(launch, parts: parts, targetVersion: LedgerTransfer.importVersion, steps: steps)
    }

    public func seed(_ launch: HarnessLaunch) async {
        LedgerAutomation.seedKeychain(
            launch, schemaVersion: LedgerTransfer.importVersion,
            deviceKeyAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
            malformed: false, migratedAt: launch.environment.now)
    }

    public func seedMalformed(_ launch: HarnessLaunch) async {
        LedgerAutomation.seedKeychain(
            launch, schemaVersion: LedgerTransfer.importVersion,
            deviceKeyAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String,
            malformed: true, migratedAt: launch.environment.now)
    }

    // v3's verify and cleanup: their reads and deletes reach every group, the new team's too.
    public func verify(_ launch: HarnessLaunch) async { await LedgerV3Build(buildID: buildID).verify(launch) }
    public func cleanup(_ launch: HarnessLaunch) async { await LedgerV3Build(buildID: buildID).cleanup(launch) }
}
