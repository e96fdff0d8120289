import Foundation
import SimRuntime

/// One app build as the harness drives it: a hook per launch mode.
///
/// A build answers every mode; each hook reports what it did through the launch (its
/// ``LaunchJournal``) and never throws: a failed store call is a status in the file, not a crash.
/// A known-bad variant of a build ("mutant") is a type that wraps or copies a build and changes one
/// hook or one part, so the harness code stays the same for all of them.
public protocol AppBuild: Sendable {
    /// The build id the app was compiled as (`v2`); it names the build in every status file.
    var buildID: String { get }
    /// `-UITestSeedLegacyKeychain`: write this build's data for the test case.
    func seed(_ launch: HarnessLaunch) async
    /// `-UITestSeedMalformed`: write this build's data malformed (corrupt archive, wrong types, non-UTF-8).
    func seedMalformed(_ launch: HarnessLaunch) async
    /// `-UITestVerifyKeychainV2`: check that this build reads the case's data where it keeps it.
    func verify(_ launch: HarnessLaunch) async
    /// `-UITestCleanup`: delete the case's items by exact service and account.
    func cleanup(_ launch: HarnessLaunch) async
    /// No automation argument: the app's own launch sequence.
    func launch(_ launch: HarnessLaunch) async
    /// The app's own startup read: the read its first screen does to decide whether the user is
    /// signed in, and with which secrets (the app's function, unchanged: its queries, its files).
    ///
    /// The harness calls it once in every launch, after the mode's hook (in a plain launch, after
    /// the app's launch sequence, as a first screen appears after `didFinishLaunching` returns),
    /// unless the hook reported what its first screen read itself (``HarnessLaunch/reportStartup(_:)``:
    /// an app whose first screen reads before its migration runs). What it returns is the status
    /// file's `startup`, which the gate's `stays-signed-in` judges, and it is the default
    /// ``verify(_:)``. Nil (the default) registers none: preflight says so, and the default verify
    /// then reads the declared stores generically.
    func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]?
    /// What this release's own launches leave on a device it ran on, beside its data (an install
    /// marker, a schema version), so that a successor's first launch meets a seeded device as it
    /// meets a user's. The harness calls it after the seed and the malformed seed. Default: nothing.
    func afterSeed(_ launch: HarnessLaunch) async
}

extension AppBuild {
    /// Registers no startup read.
    public func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? { nil }

    /// Leaves nothing beside the seeded data.
    public func afterSeed(_ launch: HarnessLaunch) async {}

    /// Runs the hook that `launch.mode` selects (a seed's followed by ``afterSeed(_:)``), then the
    /// app's startup read (unless the hook reported one).
    public func run(_ launch: HarnessLaunch) async {
        switch launch.mode {
        case .seed:
            await seed(launch)
            await afterSeed(launch)
        case .seedMalformed:
            await seedMalformed(launch)
            await afterSeed(launch)
        case .verify: await verify(launch)
        case .cleanup: await cleanup(launch)
        case .launch: await self.launch(launch)
        }
        if !launch.reportedStartup, let reads = await startupRead(launch) { launch.reportStartup(reads) }
    }
}
