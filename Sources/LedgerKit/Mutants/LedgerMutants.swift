import AppHarness
import Foundation
import LedgerRelease1
import LedgerRelease2
import LedgerRelease3
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// The known-bad builds of Ledger, one anti-pattern from seed 000 each, as small variants of the
/// frozen v2 and v3. Each has an executable (`Sources/Mutants/<Name>/main.swift`) and an archived
/// manifest under `builds/mutants/<id>/` that names the gate condition that must catch it.
public enum LedgerMutants {
    /// v2 whose step 0 -> 1 removes each preference before writing it to the keychain.
    public static func deleteBeforeWrite() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "delete-before-write")
        build.steps = { [DeleteBeforeWriteStep($0), $0.moveArchive()] }
        return build
    }

    /// v2 whose step 0 -> 1 removes each preference without reading the keychain copy back.
    public static func noReadBack() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "no-read-back")
        build.steps = { [NoReadBackStep($0), $0.moveArchive()] }
        return build
    }

    /// v2 whose step 0 -> 1 trims whitespace and newlines off each token before its keychain write.
    public static func trimsToken() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "trims-token")
        build.steps = { [RewritingMoveStep($0) { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, $0.moveArchive()] }
        return build
    }

    /// v2 whose step 0 -> 1 percent-encodes each token (as for a URL query) before its keychain write.
    public static func percentEncodesToken() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "percent-encodes-token")
        build.steps = {
            [RewritingMoveStep($0) { $0.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? $0 }, $0.moveArchive()]
        }
        return build
    }

    /// v2 whose step 0 -> 1 normalises each token to Unicode NFC before its keychain write.
    public static func normalisesToken() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "normalises-token")
        build.steps = { [RewritingMoveStep($0) { $0.precomposedStringWithCanonicalMapping }, $0.moveArchive()] }
        return build
    }

    /// v2 that ignores the stored schema version and migrates on every launch.
    public static func migrateEveryLaunch() -> MigrateEveryLaunchBuild {
        MigrateEveryLaunchBuild(buildID: "migrate-every-launch")
    }

    /// v2 that takes a preference read made before first unlock as "nothing to migrate".
    public static func prewarmEmptyRead() -> PrewarmEmptyReadBuild { PrewarmEmptyReadBuild(buildID: "prewarm-empty-read") }

    /// v2 with a session restore that answers a failed (locked) read with a delete.
    public static func lockedReadDeletes() -> LedgerVariant<LedgerV2Build> {
        var build = LedgerVariant(buildID: "locked-read-deletes", base: LedgerV2Build(buildID: "locked-read-deletes"))
        build.beforeLaunch = { SessionRestore.restoreOrDelete($0) }
        return build
    }

    /// v2 whose keychain reads carry `kSecAttrAccessible` in the search query.
    public static func accessibleInQuery() -> LedgerVariant<LedgerV2Build> {
        var base = LedgerV2Build(buildID: "accessible-in-query")
        let steps = base.steps
        base.steps = { parts in
            steps(LedgerParts(environment: parts.environment, journal: parts.journal, vault: AccessibleInQueryKeychain()))
        }
        var build = LedgerVariant(buildID: base.buildID, base: base)
        build.verifyHook = { launch in
            MutantAutomation.verifyKeychain(
                launch, service: LedgerNames.service,
                read: { AccessibleInQueryKeychain.read(service: $0, account: $1) })
        }
        return build
    }

    /// v2 whose step 0 -> 1 moves the tokens from preferences (readable after first unlock) into
    /// `kSecAttrAccessibleWhenUnlocked` items.
    public static func availabilityNarrowed() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "availability-narrowed")
        build.steps = { parts in
            let narrowed = LedgerParts(environment: parts.environment, journal: parts.journal, vault: WhenUnlockedKeychain())
            return [narrowed.moveDefaults(), parts.moveArchive()]
        }
        return build
    }

    /// v3 with `kSecAttrService` renamed and no rekey migration.
    public static func serviceRenamed() -> RenamedServiceBuild { RenamedServiceBuild(buildID: "service-renamed") }

    /// v3's code signed by another team with no bridge release: the anti-pattern is in its entitlements.
    public static func teamIDChanged() -> LedgerV3Build { LedgerV3Build(buildID: "team-id-changed") }

    /// v2 without the reinstall sweep.
    public static func noReinstallSweep() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "no-reinstall-sweep")
        build.sweeps = false
        return build
    }

    /// v2 whose migration stops at the first failed step: one malformed store keeps the valid ones
    /// behind it from migrating.
    public static func malformedStopsMigration() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "malformed-stops-migration")
        build.stopsAtFirstFailure = true
        return build
    }

    /// v2 whose reinstall sweep deletes only local generic passwords.
    public static func sweepGenericOnly() -> LedgerVariant<LedgerV2Build> {
        sweeping("sweep-generic-only") { await LedgerParts($0).sweeper(genericPasswordsOnly: true).sweepIfFreshInstall() }
    }

    /// v2 that writes the restored token into its launch log.
    public static func secretInLog() -> LedgerVariant<LedgerV2Build> {
        var build = LedgerVariant(buildID: "secret-in-log", base: LedgerV2Build(buildID: "secret-in-log"))
        build.afterLaunch = { _ in
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: "authToken")
            guard status == errSecSuccess, let data else { return }
            print("KeychainMigration: session restored, authToken=\(String(decoding: data, as: UTF8.self))")
        }
        return build
    }

    /// v2 that puts the restored token into a field of its status file.
    public static func secretInStatus() -> LedgerVariant<LedgerV2Build> {
        var build = LedgerVariant(buildID: "secret-in-status", base: LedgerV2Build(buildID: "secret-in-status"))
        build.afterLaunch = { launch in
            let (status, data) = KeychainProbe.read(service: LedgerNames.service, account: "authToken")
            guard status == errSecSuccess, let data else { return }
            // The result words are closed, so the leak rides in the free-text operation field.
            launch.record(
                "authToken", .keychain, "SecItemCopyMatching restored " + String(decoding: data, as: UTF8.self), status,
                .found)
        }
        return build
    }

    /// v2 whose verify stamps the device clock into its report: the status file is no longer derived
    /// from the inputs alone (each cell's fixed clock hides it; a verify with the clock moved shows it).
    public static func clockInStatus() -> LedgerVariant<LedgerV2Build> {
        let base = LedgerV2Build(buildID: "clock-in-status")
        var build = LedgerVariant(buildID: "clock-in-status", base: base)
        build.verifyHook = { launch in
            await base.verify(launch)
            let seconds = Int(launch.environment.now.timeIntervalSince1970)
            launch.record("session", .keychain, "SecItemCopyMatching (last verified at \(seconds))", 0, .found)
        }
        return build
    }

    /// v2 that counts its migration runs in a preference on every launch (a step that is not idempotent).
    public static func nonIdempotentStep() -> LedgerVariant<LedgerV2Build> {
        var build = LedgerVariant(buildID: "non-idempotent-step", base: LedgerV2Build(buildID: "non-idempotent-step"))
        build.afterLaunch = { launch in
            let defaults = launch.environment.defaults
            let runs = (defaults.object(forKey: migrationRunsKey) as? Int ?? 0) + 1
            let stored = defaults.set(runs, forKey: migrationRunsKey)
            launch.record(migrationRunsKey, .preferences, "set", stored ? 0 : EPERM, stored ? .written : .failed)
        }
        return build
    }

    /// The preference mutant `non-idempotent-step` counts its runs in.
    public static let migrationRunsKey = "LedgerMigrationRuns"

    /// v2 that force-unwraps the decoded legacy archive at launch.
    public static func crashOnCorruptArchive() -> LedgerVariant<LedgerV2Build> {
        var build = LedgerVariant(buildID: "crash-on-corrupt-archive", base: LedgerV2Build(buildID: "crash-on-corrupt-archive"))
        build.beforeLaunch = { LegacySessionPeek.userIDOrCrash($0.environment) }
        return build
    }

    /// v3 whose janitor, once the 30-day window has passed, removes the `session` keychain item
    /// along with the legacy session cache it is named after: the loss comes on a launch after the
    /// window, which only the artefact-window scenario's final re-read meets.
    public static func janitorDropsSession() -> LedgerVariant<LedgerV3Build> {
        var build = LedgerVariant(buildID: "janitor-drops-session", base: LedgerV3Build(buildID: "janitor-drops-session"))
        build.afterLaunch = { SessionCacheJanitor.dropSessionAfterWindow($0) }
        return build
    }

    /// v3 that takes v1's artefacts (kept by v2's migration for the rollback window) at a stored
    /// schema 2 for a half-finished v1 migration, and deletes the keychain item of each legacy
    /// preference it finds gone: data only a device that took v1, then v2, then v3 holds.
    public static func staleArtefactsResync() -> LedgerVariant<LedgerV3Build> {
        var build = LedgerVariant(buildID: "stale-artefacts-resync", base: LedgerV3Build(buildID: "stale-artefacts-resync"))
        build.beforeLaunch = { LegacyResync.resyncIfArtefactsRemain($0) }
        return build
    }

    /// v2 whose reinstall sweep does not wait for protected data.
    public static func sweepBeforeUnlock() -> LedgerVariant<LedgerV2Build> {
        sweeping("sweep-before-unlock") { launch in
            await EagerReinstallSweeper(defaults: launch.environment.defaults, journal: launch).sweepIfFreshInstall()
        }
    }

    /// v2 that migrates v1's tokens only when v1's settings file (`Documents/Preferences.plist`) is
    /// there, taking its absence for "this device never ran v1": a user who never opened v1's
    /// Settings has the tokens and no such file, and is signed out. Every seed writes the file, so
    /// only a seed variant without it shows the loss (seed-variants).
    public static func settingsGatedMigration() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "settings-gated-migration")
        let steps = build.steps
        build.steps = { parts in
            let settings = parts.environment.documents.appendingPathComponent("Preferences.plist")
            return parts.environment.files.fileExists(settings) ? steps(parts) : []
        }
        return build
    }

    /// v2 whose migration of v1's stores runs only before a sunset date (2026-07-01, "v1 support
    /// ends"): after it the legacy tokens are left where v1 kept them and the keychain is read,
    /// so a user who updates a year after last opening the app is signed out. Every upgrade at the
    /// seed's date passes; the late upgrade does not (late-upgrade).
    public static func sunsetMigration() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "sunset-migration")
        let steps = build.steps
        build.steps = { parts in parts.environment.now < sunset ? steps(parts) : [] }
        return build
    }

    /// v2 whose migration of v1's stores runs only on iOS 17 and later (it needs an API that iOS
    /// 17 added): on an older iOS the migrator records schema 2 with nothing moved, and the app reads
    /// the keychain alone from then on, so the user is signed out, and stays so after updating iOS.
    /// Every upgrade on the gate's iOS 17.5 passes; os-update (the upgrade on the oldest iOS the
    /// build supports, then an OS update) does not.
    public static func osGatedMigration() -> LedgerV2Build {
        var build = LedgerV2Build(buildID: "os-gated-migration")
        let steps = build.steps
        build.steps = { parts in
            (RuntimeVersion(parts.environment.runtime) ?? .current) >= RuntimeVersion(major: 17) ? steps(parts) : []
        }
        return build
    }

    /// The date after which mutant `sunset-migration` no longer migrates: 2026-07-01T00:00:00Z.
    public static let sunset = Date(timeIntervalSince1970: 1_782_864_000)

    /// v2 whose plain launch notes in its report when it migrated, as seconds since 1970: the
    /// status file of the first launch after the upgrade holds the time (a verify never does, so
    /// only honest-status at two clocks on every launch shows it).
    public static func clockInLaunch() -> LedgerVariant<LedgerV2Build> {
        var build = LedgerVariant(buildID: "clock-in-launch", base: LedgerV2Build(buildID: "clock-in-launch"))
        build.afterLaunch = { launch in
            let seconds = Int(launch.environment.now.timeIntervalSince1970)
            launch.record("migration", .preferences, "checked at \(seconds)", 0, .found)
        }
        return build
    }

    /// v2 whose own reinstall sweep is replaced by `sweep`, run first in every launch.
    private static func sweeping(
        _ buildID: String, _ sweep: @escaping @Sendable (HarnessLaunch) async -> SweepOutcome
    ) -> LedgerVariant<LedgerV2Build> {
        var base = LedgerV2Build(buildID: buildID)
        base.sweeps = false
        var build = LedgerVariant(buildID: buildID, base: base)
        build.beforeLaunch = { launch in launch.setSweep(await sweep(launch)) }
        return build
    }

    /// v3 that deletes every keychain item when the install marker is set and the (ThisDeviceOnly)
    /// schema version is missing: what a backup restored onto a new phone looks like.
    public static func restoreWipesKeychain() -> LedgerVariant<LedgerV3Build> {
        var build = LedgerVariant(buildID: "restore-wipes-keychain", base: LedgerV3Build(buildID: "restore-wipes-keychain"))
        build.beforeLaunch = { KeychainConsistencyGuard.wipeIfVersionMissing($0) }
        return build
    }

    /// v3 that mirrors its install marker into the keychain and restores the preference from that
    /// copy: its own reinstall is never swept.
    public static func sweepMissesOwnMarker() -> LedgerVariant<LedgerV3Build> {
        var build = LedgerVariant(buildID: "sweep-misses-own-marker", base: LedgerV3Build(buildID: "sweep-misses-own-marker"))
        build.beforeSeed = { launch in
            launch.environment.defaults.set(true, forKey: LedgerNames.installMarkerKey)
            KeychainInstallMarker.mirrorMarker(launch)
        }
        build.beforeLaunch = { KeychainInstallMarker.restoreMarker($0) }
        build.afterLaunch = { KeychainInstallMarker.mirrorMarker($0) }
        build.cleanupHook = { launch in
            MutantAutomation.cleanupKeychain(
                launch, service: LedgerNames.service,
                accounts: LedgerLaunchSequence.cleanupAccounts + [KeychainInstallMarker.account])
        }
        return build
    }

    /// v3 that, after every launch, puts its tokens and session behind `.biometryCurrentSet` access
    /// control: unreadable in a background launch and while locked, invalidated by a new fingerprint.
    public static func biometryBoundTokens() -> LedgerVariant<LedgerV3Build> {
        var build = LedgerVariant(buildID: "biometry-bound-tokens", base: LedgerV3Build(buildID: "biometry-bound-tokens"))
        build.afterLaunch = { BiometryBoundTokens.bindToBiometry($0) }
        return build
    }

    /// v2 whose step 1 -> 2 moves v1's archived session into `Library/Caches/Session.json` instead of
    /// the keychain: iOS purges that folder under storage pressure, and the user is signed out.
    public static func sessionInCaches() -> LedgerVariant<LedgerV2Build> {
        sessionInFile(
            "session-in-caches", step: { MoveArchiveToFileStep($0) }, verify: { SessionInCaches.verify($0) },
            remove: { SessionInCaches.removeFile($0) })
    }

    /// v2 whose step 1 -> 2 moves v1's archived session into `Library/Application Support/Session.json`
    /// and keeps that file's absolute path in the preferences, which later launches read it by: the
    /// path points nowhere once iOS moves the data container (an update, a restore onto a new phone).
    public static func storedContainerPath() -> LedgerVariant<LedgerV2Build> {
        sessionInFile(
            "stored-container-path",
            step: {
                MoveArchiveToFileStep(
                    $0, destination: StoredContainerPath.file($0.environment), pathKey: StoredContainerPath.pathKey)
            }, verify: { StoredContainerPath.verify($0) }, remove: { StoredContainerPath.removeFile($0) })
    }

    /// v2 whose step 1 -> 2 is `step` (v1's session into a JSON file), read by `verify`; its cleanup
    /// runs `remove`, then v2's own.
    static func sessionInFile(
        _ buildID: String, step: @escaping @Sendable (LedgerParts) -> any MigrationStep,
        verify: @escaping @Sendable (HarnessLaunch) -> Void, remove: @escaping @Sendable (HarnessLaunch) -> Void
    ) -> LedgerVariant<LedgerV2Build> {
        var base = LedgerV2Build(buildID: buildID)
        base.steps = { [$0.moveDefaults(), step($0)] }
        let released = base
        var build = LedgerVariant(buildID: buildID, base: base)
        build.verifyHook = { verify($0) }
        build.cleanupHook = { launch in
            remove(launch)
            await released.cleanup(launch)
        }
        return build
    }

    /// v3 that, after every launch, re-saves its `ThisDeviceOnly` items with
    /// `kSecAttrAccessibleAfterFirstUnlock`: device-bound secrets now travel in backups.
    public static func protectionWidened() -> LedgerVariant<LedgerV3Build> {
        var build = LedgerVariant(buildID: "protection-widened", base: LedgerV3Build(buildID: "protection-widened"))
        build.afterLaunch = { ProtectionWidening.resaveWithoutThisDeviceOnly($0) }
        return build
    }
}
