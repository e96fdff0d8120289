import Foundation
import GateModel
import SimRuntime

/// One scenario's home: the steps it runs on its cell's device, and the moments
/// at which those steps snapshot the device for its checkers. Each scenario has one file in this
/// folder; the steps every scenario shares (seed, a route's hops, the upgrade, the final re-read)
/// are ``CellRunner``'s, and the conditions a scenario checks are ``Scenario/checks`` (docs/architecture.md's
/// table), each judged by its checker in `Checkers/`.
protocol ScenarioSteps {
    /// The moments the steps snapshot (``CellEvidence/snapshots``): exactly these, in a debug build
    /// ``CellRunner`` asserts it, so a checker reads only moments its scenario records.
    static var moments: Set<Moment> { get }

    /// The snapshots idempotent compares in turn, each against the one before: the further launches
    /// that must change nothing. Default: the final re-read's relaunch.
    static var idempotenceMoments: [Moment] { get }

    /// What every verify launch of the new build must read the seeded secrets as, and when, where
    /// the scenario's point is their removal (reads-old-data); nil (the default): `found`, and
    /// `missing` once the test's cleanup ran.
    static var removal: (wanted: ItemResult, when: String)? { get }

    /// Whether the cell's steps run a second time with every date moved, so that honest-status
    /// compares each launch's status file at two clocks (``ClockTwin``). Default: no; the cells
    /// that run a path's plain sequence (fresh install, the upgrades) do.
    static var twinsLaunches: Bool { get }

    /// The runtime the cell's device starts on, when not the cell's own (os-update starts on the
    /// oldest iOS the new build supports, then updates the device to the cell's). Default: nil.
    static func startRuntime(_ cell: CellRunner) -> RuntimeVersion?

    /// Runs the scenario's steps on `device` (fresh, empty, with the cell's fixed clock), leaving
    /// what the checkers need in `evidence`.
    /// - Throws: a device error, which aborts the cell (its conditions UNKNOWN).
    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws
}

extension ScenarioSteps {
    static var idempotenceMoments: [Moment] { [.beforeFinalRelaunch, .afterFinalRelaunch] }
    static var removal: (wanted: ItemResult, when: String)? { nil }
    static var twinsLaunches: Bool { false }
    static func startRuntime(_ cell: CellRunner) -> RuntimeVersion? { nil }
}

extension Scenario {
    /// The scenario's steps (its file in `Scenarios/`).
    var steps: any ScenarioSteps.Type {
        switch self {
        case .freshInstall: FreshInstallSteps.self
        case .upgrade: UpgradeSteps.self
        case .skipVersion: SkipVersionSteps.self
        case .lateUpgrade: LateUpgradeSteps.self
        case .seedVariants: SeedVariantsSteps.self
        case .relaunch: RelaunchSteps.self
        case .malformed: MalformedSteps.self
        case .writeFailure: WriteFailureSteps.self
        case .crashPoints: CrashPointsSteps.self
        case .powerLoss: PowerLossSteps.self
        case .prewarm: PrewarmSteps.self
        case .lockedBackground: LockedBackgroundSteps.self
        case .reinstall: ReinstallSteps.self
        case .markerWithoutData: MarkerWithoutDataSteps.self
        case .staleLeftovers: StaleLeftoversSteps.self
        case .entitlements: EntitlementsSteps.self
        case .isolation: IsolationSteps.self
        case .cleanup: CleanupSteps.self
        case .artefactWindow: ArtefactWindowSteps.self
        case .lockedReads: LockedReadsSteps.self
        case .backupRestore: BackupRestoreSteps.self
        case .reinstallSelf: ReinstallSelfSteps.self
        case .osUpdate: OSUpdateSteps.self
        case .storagePressure: StoragePressureSteps.self
        case .passcodeAndBiometry: PasscodeAndBiometrySteps.self
        case .backupAfterMigration: BackupAfterMigrationSteps.self
        case .extensionFirst: ExtensionFirstSteps.self
        case .interleavings: InterleavingsSteps.self
        case .secondDevice: SecondDeviceSteps.self
        }
    }
}
