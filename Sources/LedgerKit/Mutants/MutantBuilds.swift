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

/// Mutant `migrate-every-launch`: v2's launch, except that the schema version is written but never
/// read, so step 0 -> 1 and 1 -> 2 run on every launch (still gated on protected data). Its step
/// 0 -> 1 is a copy that relies on the version to run once (``CopyPreferencesStep``).
public struct MigrateEveryLaunchBuild: AppBuild {
    public let buildID: String
    let base: LedgerV2Build

    public init(buildID: String) {
        self.buildID = buildID
        base = LedgerV2Build(buildID: buildID)
    }

    public func launch(_ launch: HarnessLaunch) async {
        let parts = LedgerParts(launch)
        launch.setSweep(await parts.sweeper().sweepIfFreshInstall())
        launch.setMigration(await migrate(parts).outcome)
        LedgerAutomation.finish(launch)
    }

    private func migrate(_ parts: LedgerParts) async -> LedgerRelease2.MigrationState {
        guard parts.environment.protectedData.isAvailable else { return .deferred(reason: "protected data unavailable") }
        let steps: [any MigrationStep] = [CopyPreferencesStep(parts), parts.moveArchive()]
        for step in steps {
            do { try await step.run() } catch {
                return .failed(from: 0, at: step.from, reason: "step \(step.from)->\(step.from + 1): \(error)")
            }
        }
        do {
            try await parts.vault.save(
                Data("2".utf8), account: LedgerNames.versionAccount,
                accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
        } catch {
            return .failed(from: 0, at: 2, reason: "\(LedgerNames.versionAccount) \(error)")
        }
        return .migrated(from: 0, to: 2)
    }

    public func seed(_ launch: HarnessLaunch) async { await base.seed(launch) }
    public func seedMalformed(_ launch: HarnessLaunch) async { await base.seedMalformed(launch) }
    public func verify(_ launch: HarnessLaunch) async { await base.verify(launch) }
    public func cleanup(_ launch: HarnessLaunch) async { await base.cleanup(launch) }
}

/// Mutant `prewarm-empty-read`: v2's launch, except that it looks for legacy preferences when the
/// launch begins (before the sweep waits for protected data) and lets step 0 -> 1 trust that read.
/// Before first unlock the read is empty, the migration completes as "nothing to migrate", and
/// the version moves to 2 with the tokens still in preferences.
public struct PrewarmEmptyReadBuild: AppBuild {
    public let buildID: String
    let base: LedgerV2Build

    public init(buildID: String) {
        self.buildID = buildID
        base = LedgerV2Build(buildID: buildID)
    }

    public func launch(_ launch: HarnessLaunch) async {
        let stored = launch.environment.defaults.persistentDomain()
        let keysAtLaunch = LedgerNames.legacyPreferenceKeys.filter { stored[$0] != nil }
        let parts = LedgerParts(launch)
        launch.setSweep(await parts.sweeper().sweepIfFreshInstall())
        let steps: [any MigrationStep] = [
            EmptyReadMeansDoneStep(keysAtLaunch: keysAtLaunch, step: parts.moveDefaults()),
            parts.moveArchive(),
        ]
        launch.setMigration(await parts.migrator(targetVersion: 2, steps: steps).migrateIfNeeded().outcome)
        LedgerAutomation.finish(launch)
    }

    public func seed(_ launch: HarnessLaunch) async { await base.seed(launch) }
    public func seedMalformed(_ launch: HarnessLaunch) async { await base.seedMalformed(launch) }
    public func verify(_ launch: HarnessLaunch) async { await base.verify(launch) }
    public func cleanup(_ launch: HarnessLaunch) async { await base.cleanup(launch) }
}

/// Mutant `service-renamed`: v3 with `kSecAttrService` renamed to ``service`` and no rekey
/// migration. Everything the build writes goes under the new service; what v2 and v3 left under
/// the old one is stranded (seed 000, "Orphaned items after a rename").
public struct RenamedServiceBuild: AppBuild {
    public let buildID: String
    /// The new service.
    public static let service = "com.example.ledger.vault"
    let base: LedgerV3Build

    public init(buildID: String) {
        self.buildID = buildID
        base = LedgerV3Build(buildID: buildID)
    }

    public func launch(_ launch: HarnessLaunch) async {
        let parts = LedgerParts(
            environment: launch.environment, journal: launch,
            vault: LiveMigrationKeychain(service: Self.service))
        await LedgerLaunchSequence.run(launch, parts: parts, targetVersion: 3, steps: base.steps(parts))
    }

    public func seed(_ launch: HarnessLaunch) async { await base.seed(launch) }
    public func seedMalformed(_ launch: HarnessLaunch) async { await base.seedMalformed(launch) }

    public func verify(_ launch: HarnessLaunch) async {
        MutantAutomation.verifyKeychain(launch, service: Self.service, read: { KeychainProbe.read(service: $0, account: $1) })
    }

    public func cleanup(_ launch: HarnessLaunch) async {
        MutantAutomation.cleanupKeychain(launch, service: Self.service, accounts: LedgerLaunchSequence.cleanupAccounts)
    }
}
