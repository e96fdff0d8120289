import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2

/// The launch sequence v3 fixed, for v3 and the releases after it: the reinstall sweep, the schema
/// migration to `targetVersion`, then (once the migration is known complete) the migration date and
/// the 30-day janitor, and the status's schema version and legacy stores.
public enum LedgerLaunchSequence {
    /// Runs the sequence for one launch, with `steps` up to `targetVersion` (`sweeps`: the reinstall sweep first).
    public static func run(
        _ launch: HarnessLaunch, parts: LedgerParts, targetVersion: Int,
        steps: [any MigrationStep], sweeps: Bool = true
    ) async {
        if sweeps {
            launch.setSweep(await parts.sweeper().sweepIfFreshInstall())
        }
        let state = await parts.migrator(targetVersion: targetVersion, steps: steps).migrateIfNeeded()
        launch.setMigration(state.outcome)
        switch state {
        case .migrated, .upToDate:
            // The window starts when the migration is known to be complete, on the device clock.
            let janitor = parts.janitor()
            await janitor.stampIfNeeded(now: launch.environment.now)
            await janitor.sweepIfWindowElapsed(now: launch.environment.now)
        case .deferred, .failed, .tooNew:
            break
        }
        LedgerAutomation.finish(launch)
    }

    /// The accounts a v3-style build's cleanup deletes.
    public static let cleanupAccounts = [
        "authToken", "refreshToken", LedgerNames.sessionAccount, LedgerNames.versionAccount,
        LedgerNames.migratedAtAccount,
    ]
}
