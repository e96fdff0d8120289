import Foundation

/// An app's own report of a read that returned a secret as text: a ``SecretReport`` with the text
/// it got. The app's read type conforms in its automation module, naming the property that holds
/// what it read (`extension MailLaunch.Read: SecretReadReport { public var text: String? { password } }`),
/// and ``SecretRead/init(_:)`` and `launch.reportStartup(reads)` take it as it is.
public protocol SecretReadReport: SecretReport {
    /// What the read returned (nil: nothing). Compared with the case's value; never written anywhere.
    var text: String? { get }
}

extension SecretRead {
    /// The app's own report of a read (``SecretReadReport``), with the text it returned.
    public init(_ report: some SecretReadReport) { self.init(report, text: report.text) }
}

extension HarnessLaunch {
    /// Records what the app's first screen read, from the app's own read reports.
    public func reportStartup<Read: SecretReadReport>(_ reads: [Read]) { reportStartup(reads.map { SecretRead($0) }) }

    /// Records each of the app's own step reports with the result word its outcome maps to:
    /// `results[report[keyPath: outcome]]`, and `failed` for an outcome the mapping does not name
    /// (`launch.record(steps, by: \.outcome, [.moved: .written, .kept: .kept])`).
    public func record<Report: SecretReport, Outcome: Hashable>(
        _ reports: [Report], by outcome: KeyPath<Report, Outcome>, _ results: [Outcome: ItemResult]
    ) {
        for report in reports { record(report, results[report[keyPath: outcome]] ?? .failed) }
    }

    /// Sets what the migration did in this launch from the app's own state, a string enum whose raw
    /// values are ``MigrationState``'s words (`migrated`, `upToDate`, `deferred`, `failed`,
    /// `tooNew`); any other raw value is `failed`.
    public func setMigration<State: RawRepresentable>(state: State) where State.RawValue == String {
        setMigration(MigrationOutcome(state: MigrationState(rawValue: state.rawValue) ?? .failed))
    }

    /// What the app's launch sequence returned, in one call: its state (``setMigration(state:)``) and
    /// its steps, each with the result word its outcome maps to (``record(_:by:_:)``).
    public func setMigration<State: RawRepresentable, Report: SecretReport, Outcome: Hashable>(
        state: State, steps: [Report], by outcome: KeyPath<Report, Outcome>, _ results: [Outcome: ItemResult]
    ) where State.RawValue == String {
        record(steps, by: outcome, results)
        setMigration(state: state)
    }
}

/// An app build made of the app's own functions, one closure per hook: what a build type would
/// hold, without the type. A hook left nil keeps ``AppBuild``'s default (the declared stores for
/// `seed`, `seedMalformed`, `verify` and `cleanup`; nothing after a seed; no startup read).
///
/// One executable may also play the build's app extensions (build.json's `extensions` naming the
/// app's executable): in an extension's launch (``HarnessLaunch/appExtension`` set) the startup read
/// is `extensionRead` and the plain launch runs nothing, as an extension that never migrates; an
/// extension that does more is a build type of its own.
///
/// ```swift
/// await Harness.main(
///     AppFunctions("notes2", startupRead: { _ in NotesKit.signIn() }) { launch in
///         let (state, steps) = NotesKit.migrate(protectedDataAvailable: await launch.waitForProtectedData())
///         launch.setMigration(state: state, steps: steps, by: \.outcome, [.moved: .written])
///     })
/// ```
public struct AppFunctions: AppBuild {
    /// One hook: what it does with the launch.
    public typealias Hook = @Sendable (HarnessLaunch) async -> Void
    /// A startup read: what the first screen read (nil: none registered).
    public typealias Read = @Sendable (HarnessLaunch) async -> [SecretRead]?

    public let buildID: String
    let seedHook: Hook?
    let afterSeedHook: Hook?
    let startupReadHook: Read?
    let extensionReadHook: Read?
    let launchHook: Hook

    /// A build `buildID` whose plain launch is `launch`; `seed`, `afterSeed` and `startupRead` are the
    /// hooks of the same names (nil: their defaults); `extensionRead` is the startup read of the
    /// build's extensions' launches (nil: none).
    public init(
        _ buildID: String, seed: Hook? = nil, afterSeed: Hook? = nil, startupRead: Read? = nil, extensionRead: Read? = nil,
        launch: @escaping Hook
    ) {
        self.buildID = buildID
        self.seedHook = seed
        self.afterSeedHook = afterSeed
        self.startupReadHook = startupRead
        self.extensionReadHook = extensionRead
        self.launchHook = launch
    }

    /// The same, with the app's own read reports (``SecretReadReport``) as the startup reads: the
    /// app's and, in an extension's launch, the extension's.
    public init<AppRead: SecretReadReport, ExtensionRead: SecretReadReport>(
        _ buildID: String, seed: Hook? = nil, afterSeed: Hook? = nil,
        startupRead: @escaping @Sendable (HarnessLaunch) async -> [AppRead],
        extensionRead: @escaping @Sendable (HarnessLaunch) async -> [ExtensionRead], launch: @escaping Hook
    ) {
        self.init(
            buildID, seed: seed, afterSeed: afterSeed, startupRead: { await startupRead($0).map { SecretRead($0) } },
            extensionRead: { await extensionRead($0).map { SecretRead($0) } }, launch: launch)
    }

    /// The same, with the app's own read reports as its startup read, and no extension.
    public init<AppRead: SecretReadReport>(
        _ buildID: String, seed: Hook? = nil, afterSeed: Hook? = nil,
        startupRead: @escaping @Sendable (HarnessLaunch) async -> [AppRead], launch: @escaping Hook
    ) {
        self.init(
            buildID, seed: seed, afterSeed: afterSeed, startupRead: { await startupRead($0).map { SecretRead($0) } },
            launch: launch)
    }

    /// A seed hook that runs the app's own save (``HarnessLaunch/seed(through:_:)``), `operation`
    /// naming it in the status file; nil (the declared stores' seed) unless `when` holds: a 1.0 whose
    /// account screen's Save is the seed, beside later releases that seed where build.json says.
    public static func seed(
        through operation: String, when: Bool = true, _ save: @escaping @Sendable (CaseSecrets) throws -> Void
    ) -> Hook? {
        guard when else { return nil }
        return { @Sendable launch in launch.seed(through: operation, save) }
    }

    public func seed(_ launch: HarnessLaunch) async {
        guard let seedHook else { return DeclaredStores(launch).seed() }
        await seedHook(launch)
    }

    public func afterSeed(_ launch: HarnessLaunch) async { await afterSeedHook?(launch) }

    public func launch(_ launch: HarnessLaunch) async {
        guard launch.appExtension == nil else { return }
        await launchHook(launch)
    }

    public func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
        await (launch.appExtension == nil ? startupReadHook : extensionReadHook)?(launch)
    }
}
