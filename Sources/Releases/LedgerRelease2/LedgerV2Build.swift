import AppHarness
import Foundation
import LedgerRelease1

/// Ledger 2.0 (build 200, schema 2), frozen: reinstall sweep before anything touches the keychain,
/// then the schema migration (0 -> 1 preferences, 1 -> 2 archive) gated on protected data, with the
/// version stored in the keychain.
public struct LedgerV2Build: AppBuild {
    public let buildID: String
    /// The steps of schema 2, in order; a known-bad variant replaces one.
    public var steps: @Sendable (LedgerParts) -> [any MigrationStep]
    /// Whether the launch runs the reinstall sweep first.
    public var sweeps = true
    /// Whether a failed step skips the later ones (mutant `malformed-stops-migration`).
    public var stopsAtFirstFailure = false

    public init(buildID: String = "v2") {
        self.buildID = buildID
        steps = { [$0.moveDefaults(), $0.moveArchive()] }
    }

    public func launch(_ launch: HarnessLaunch) async {
        let parts = LedgerParts(launch)
        if sweeps {
            launch.setSweep(await parts.sweeper().sweepIfFreshInstall())
        }
        let migrator = parts.migrator(targetVersion: 2, steps: steps(parts), stopsAtFirstFailure: stopsAtFirstFailure)
        let state = await migrator.migrateIfNeeded()
        launch.setMigration(state.outcome)
        LedgerAutomation.finish(launch)
    }

    public func seed(_ launch: HarnessLaunch) async {
        LedgerAutomation.seedKeychain(launch, schemaVersion: 2, deviceKeyAccessible: nil, malformed: false)
    }

    public func seedMalformed(_ launch: HarnessLaunch) async {
        LedgerAutomation.seedKeychain(launch, schemaVersion: 2, deviceKeyAccessible: nil, malformed: true)
    }

    public func verify(_ launch: HarnessLaunch) async {
        LedgerAutomation.verifyKeychain(launch)
    }

    public func cleanup(_ launch: HarnessLaunch) async {
        LedgerAutomation.cleanupKeychain(
            launch,
            accounts: [
                "authToken", "refreshToken", LedgerNames.sessionAccount,
                LedgerNames.versionAccount,
            ])
    }
}
