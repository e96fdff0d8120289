import Foundation

/// A scenario: what happens on one path's fresh device, and the conditions it checks
/// (docs/architecture.md's table; the ids are a contract).
public enum Scenario: String, CaseIterable, Codable, Sendable, Comparable, CustomStringConvertible {
    case freshInstall = "fresh-install"
    case upgrade = "upgrade"
    case skipVersion = "skip-version"
    case lateUpgrade = "late-upgrade"
    case seedVariants = "seed-variants"
    case relaunch = "relaunch"
    case malformed = "malformed"
    case writeFailure = "write-failure"
    case crashPoints = "crash-points"
    case powerLoss = "power-loss"
    case prewarm = "prewarm"
    case lockedBackground = "locked-background"
    case reinstall = "reinstall"
    case markerWithoutData = "marker-without-data"
    case staleLeftovers = "stale-leftovers"
    case entitlements = "entitlements"
    case isolation = "isolation"
    case cleanup = "cleanup"
    case artefactWindow = "artefact-window"
    case lockedReads = "locked-reads"
    case backupRestore = "backup-restore"
    case reinstallSelf = "reinstall-self"
    // New scenarios go last: the shape rotation counts positions in this order (ShapeRotation).
    case osUpdate = "os-update"
    case storagePressure = "storage-pressure"
    case passcodeAndBiometry = "passcode-and-biometry"
    case backupAfterMigration = "backup-after-migration"
    case extensionFirst = "extension-first"
    case interleavings = "interleavings"
    case secondDevice = "second-device"

    /// The scenario's id, as reports print it.
    public var description: String { rawValue }

    /// What a scenario is, in one place: the conditions it checks itself and each way the plan,
    /// the cells and the shape rotation treat it. ``traits`` is one exhaustive switch, so a new
    /// scenario does not compile until every trait is chosen for it (docs/extending.md).
    package struct Traits: Sendable {
        /// The conditions it checks itself (``checks`` adds the final re-read's and stays-signed-in).
        var own: [GateCondition]
        /// Its launches of the new build after the upgrade are ones the user makes on a device that
        /// kept the old release's data: stays-signed-in judges them (``judgesSignIn``).
        var judgesSignIn = false
        /// It changes the device after the upgrade and so ends with the final re-read (``changesStateAfterUpgrade``).
        var changesState = false
        /// Fault and crash exploration: many attempts, each on its own device (``isExploration``).
        var exploration = false
        /// Runs only when `--scenarios` names it (``isOptIn``).
        var optIn = false
        /// Runs only on a path whose new build declares an app extension (``needsExtension``).
        var needsExtension = false
        /// Runs only on a path whose last hop starts at a build that keeps a synchronizable secret
        /// (``needsSynchronizable``).
        var needsSynchronizable = false
        /// Runs on a fresh install (`none-to-X`) rather than an upgrade path (``isFreshInstall``).
        var freshInstall = false
        /// Runs only on the release under test's path (``releaseOnly``).
        var releaseOnly = false
        /// Tells the case's value from other bytes on the device, so never seeds the `empty` shape
        /// (``ShapeRotation/tellsValuesApart``).
        var tellsValuesApart = false
    }

    /// This scenario's traits (docs/gate.md's table says why each is so).
    package var traits: Traits {
        switch self {
        case .freshInstall: Traits(own: [.idempotent, .noSecretInArtifacts], freshInstall: true)
        case .upgrade, .skipVersion, .lateUpgrade: Traits(own: [.readsOldData], judgesSignIn: true)
        // seed-variants tells values apart: a store the seed wrote holds a secret when the case's value is in it.
        case .seedVariants: Traits(own: [.readsOldData], judgesSignIn: true, tellsValuesApart: true)
        case .relaunch: Traits(own: [.idempotent], judgesSignIn: true, changesState: true)
        // A store the seed malformed is one where the case's value is nowhere.
        case .malformed: Traits(own: [.malformedKeepsOld], tellsValuesApart: true)
        // Each attempt's launches after its recovery judge stays-signed-in (I7).
        case .writeFailure: Traits(own: [.crashSafe, .readsOldData], judgesSignIn: true, exploration: true)
        case .crashPoints: Traits(own: [.crashSafe], judgesSignIn: true, exploration: true)
        // Its model asks more of an app than a crash does (docs/file-supervision.md, "Power loss").
        case .powerLoss: Traits(own: [.crashSafe], judgesSignIn: true, exploration: true, optIn: true)
        case .prewarm, .lockedBackground: Traits(own: [.lockedLaunchSafe], judgesSignIn: true, exploration: true)
        // Takes data away on purpose: no stays-signed-in.
        case .reinstall: Traits(own: [.reinstallSweeps], changesState: true)
        case .markerWithoutData: Traits(own: [.readsOldData], changesState: true)
        // Seeds nothing of its own; another case's data beside the cell's.
        case .staleLeftovers: Traits(own: [.noFalsePass], tellsValuesApart: true)
        // No launch.
        case .entitlements: Traits(own: [.entitlementsCompatible])
        case .isolation: Traits(own: [.isolation], judgesSignIn: true, changesState: true)
        // Another case's data beside the cell's own; the test's cleanup takes the case's away.
        case .cleanup: Traits(own: [.cleanupExact], changesState: true, tellsValuesApart: true)
        case .artefactWindow: Traits(own: [.artefactWindow], judgesSignIn: true, changesState: true)
        // Its verify launches in each lock state are its re-read.
        case .lockedReads: Traits(own: [.keepsAvailability, .keepsProtection], judgesSignIn: true)
        // survives-restore asks which of the case's values reached the restored device.
        case .backupRestore: Traits(own: [.survivesRestore], tellsValuesApart: true)
        // The release's own launch after its own seed; after the reinstall, as its policy says.
        case .reinstallSelf:
            Traits(own: [.reinstallSweeps], judgesSignIn: true, changesState: true, freshInstall: true, releaseOnly: true)
        // The upgrade on the oldest iOS the new build supports, then an OS update and a verify.
        case .osUpdate: Traits(own: [.readsOldData], judgesSignIn: true)
        // iOS purges caches and tmp after the migration; the final re-read judges what is left.
        case .storagePressure: Traits(own: [.readsOldData], judgesSignIn: true, changesState: true)
        // The passcode turned off and the biometry changed after the migration; the final re-read judges.
        case .passcodeAndBiometry: Traits(own: [.readsOldData], judgesSignIn: true, changesState: true)
        // As backup-restore, with the backup taken after the new build's first launch.
        case .backupAfterMigration: Traits(own: [.survivesRestore], tellsValuesApart: true)
        // The new release's extensions before the app's first launch, then the app, then the extensions
        // again (issue 39): stays-signed-in judges every launch, each extension against its old self's read.
        case .extensionFirst: Traits(own: [.readsOldData], judgesSignIn: true, needsExtension: true)
        // The app's first launch and an extension's at once, every schedule of their store operations
        // within the preemption bound (issue 39): crash-safe's invariants over both, stays-signed-in for both.
        case .interleavings: Traits(own: [.crashSafe], judgesSignIn: true, exploration: true, needsExtension: true)
        // Two devices of one user share synchronizable items (issue 38): the new release migrates on one,
        // the old release reads on the other after each sync; stays-signed-in judges both devices.
        // Only where the release device B runs keeps a synchronizable secret (run.json's `synchronizable`).
        case .secondDevice: Traits(own: [.readsOldData], judgesSignIn: true, needsSynchronizable: true)
        }
    }

    /// The conditions this scenario checks, from docs/gate.md's table. Every (path, scenario) cell also
    /// checks ``GateCondition/noSecretInArtifacts`` (the table's "every path" row); ``GatePlan`` adds it.
    ///
    /// Every scenario that changes the device after the upgrade (``changesStateAfterUpgrade``) also
    /// checks reads-old-data and idempotent on its final re-read (the table's "every scenario that
    /// changes state" row): a relaunch that changes nothing, then a verify launch of every declared
    /// secret (see ``ReadsOldData`` for what each must read as).
    public var checks: [GateCondition] {
        let own = traits.own
        let signedIn: [GateCondition] = judgesSignIn ? [.staysSignedIn] : []
        guard changesStateAfterUpgrade else { return own + signedIn }
        return own + [.readsOldData, .idempotent].filter { !own.contains($0) } + signedIn
    }

    /// Whether the scenario judges stays-signed-in: its launches of the new build after the
    /// upgrade are ones the user makes on a device that kept the old release's data (the upgrade's
    /// own launches, relaunches, a neighbour app's, days later, verifies in each lock state). Not the
    /// scenarios that take data away on purpose (reinstall, marker-without-data, cleanup), that seed it
    /// malformed, that seed nothing of their own, or that launch nothing. reinstall-self judges the release's
    /// own launch after its own seed, and after the reinstall only under keeps-credentials.
    public var judgesSignIn: Bool { traits.judgesSignIn }

    /// Whether the scenario changes the device after the upgrade (relaunches, removes data, moves
    /// the clock, reinstalls, runs the test's cleanup, purges caches) and so ends with the final re-read. Not:
    /// upgrade and skip-version (their verify is the re-read), malformed (it changes nothing after
    /// the upgrade; its legacy data is malformed-keeps-old's), stale-leftovers (it seeds nothing of
    /// its own), entitlements (no launch), locked-reads (its verify launches in each lock state are
    /// its re-read), and the exploration scenarios, whose every attempt already ends with a relaunch
    /// (I4) and a verify launch.
    public var changesStateAfterUpgrade: Bool { traits.changesState }

    /// Whether the scenario belongs to fault and crash exploration: many attempts, each on its own
    /// device (`--scenarios` can leave them out for a quicker gate).
    public var isExploration: Bool { traits.exploration }

    /// Whether the scenario runs only when `--scenarios` names it: power-loss, whose model asks more
    /// of an app than a crash does (docs/file-supervision.md, "Power loss"), and which the sample's
    /// frozen releases fail (docs/gate.md's scenario table).
    public var isOptIn: Bool { traits.optIn }

    /// Whether the scenario runs only on a path whose new build declares an app extension (build.json's
    /// `extensions`; run.json's `extensions` records which do): extension-first and interleavings. The
    /// plan leaves it out of every other path, and out of a run whose builds declare none (``GatePlan``).
    public var needsExtension: Bool { traits.needsExtension }

    /// Whether the scenario runs only on a path whose last hop starts at a build that declares a
    /// synchronizable keychain secret (build.json's `keeps`, `"synchronizable": true`; run.json's
    /// `synchronizable` records which do): second-device, whose second device runs that build.
    public var needsSynchronizable: Bool { traits.needsSynchronizable }

    /// Whether the scenario runs on a fresh install (`none-to-X`) rather than on an upgrade path:
    /// fresh-install, and reinstall-self (the release under test is its own old build).
    public var isFreshInstall: Bool { traits.freshInstall }

    /// Whether the scenario runs only on the release under test's path (reinstall-self: the release
    /// seeds, is uninstalled and reinstalled; an older build's reinstall of itself is history the
    /// gate does not need to repeat).
    public var releaseOnly: Bool { traits.releaseOnly }

    /// The scenarios `gate` runs when none are named: every scenario, exploration included, but the
    /// opt-in ones (``isOptIn``). Those that need an app extension (``needsExtension``) run only on
    /// the paths whose new build declares one.
    public static var gateDefault: [Scenario] { allCases.filter { !$0.isOptIn } }

    /// Parses a comma-separated list of scenario ids, such as `--scenarios upgrade,relaunch`.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming the field and the unknown id.
    public static func parseList(_ text: String, field: GateField = .scenarios) throws(GateError) -> [Scenario] {
        var result: [Scenario] = []
        for word in text.split(separator: ",", omittingEmptySubsequences: false) {
            let id = word.trimmingCharacters(in: .whitespaces)
            guard let scenario = Scenario(rawValue: id) else {
                throw .invalidValue(field: field, value: text, reason: "names unknown scenario \"\(id)\"")
            }
            if !result.contains(scenario) { result.append(scenario) }
        }
        return result
    }

    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// Declaration order, the order of docs/architecture.md's table.
    public static func < (lhs: Scenario, rhs: Scenario) -> Bool { lhs.order < rhs.order }
}
