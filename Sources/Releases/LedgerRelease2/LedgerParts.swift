import AppHarness
import Foundation

/// The migration parts of one launch, wired to its environment, journal and keychain. A build
/// composes its launch sequence from these; a known-bad variant replaces exactly one. These are
/// Ledger 2.0's; LedgerRelease3 adds v3's in an extension.
public struct LedgerParts: Sendable {
    public let environment: AppEnvironment
    public let journal: any LaunchJournal
    public let vault: any MigrationKeychainProtocol

    public init(
        environment: AppEnvironment, journal: any LaunchJournal,
        vault: any MigrationKeychainProtocol = LiveMigrationKeychain()
    ) {
        self.environment = environment
        self.journal = journal
        self.vault = vault
    }

    /// The parts of an automation launch (the launch is the journal).
    public init(_ launch: HarnessLaunch) {
        self.init(environment: launch.environment, journal: launch)
    }

    public func sweeper(genericPasswordsOnly: Bool = false) -> ReinstallSweeper {
        ReinstallSweeper(
            defaults: environment.defaults, protectedData: environment.protectedData, journal: journal,
            timeout: environment.protectedDataTimeout, genericPasswordsOnly: genericPasswordsOnly)
    }

    public func mover() -> DefaultsToKeychainMover {
        DefaultsToKeychainMover(vault: vault, defaults: environment.defaults, journal: journal)
    }

    /// Step 0 -> 1.
    public func moveDefaults() -> any MigrationStep { MoveDefaultsStep(mover: mover()) }

    /// Step 1 -> 2.
    public func moveArchive() -> any MigrationStep {
        MoveArchiveStep(
            vault: vault, files: environment.files, applicationSupport: environment.applicationSupport,
            journal: journal)
    }

    public func migrator(
        targetVersion: Int, steps: [any MigrationStep], stopsAtFirstFailure: Bool = false
    ) -> SchemaMigrator {
        SchemaMigrator(
            targetVersion: targetVersion, steps: steps, vault: vault, protectedData: environment.protectedData,
            stopsAtFirstFailure: stopsAtFirstFailure)
    }
}
