import Foundation
import SimRuntime

/// One automation launch of a build: its mode, test case and environment, and the status it
/// collects while the build's hook runs.
///
/// It is the build's ``LaunchJournal``: every entry becomes an ``ItemCheck`` carrying the launch's
/// runtime. It never sees a value, only names, operations, statuses and results.
public final class HarnessLaunch: LaunchJournal, @unchecked Sendable {
    public let mode: LaunchMode
    /// The test case (`-UITestCaseID`); empty for a plain launch without one.
    public let caseID: String
    public let environment: AppEnvironment
    /// What this build declares it keeps (its installed build.json's `keeps`), resolved for the
    /// case; nil when the build declares nothing or runs outside an installed bundle. Read on first
    /// use: a build whose hooks never ask (its own seed, verify and cleanup) pays nothing for it.
    public var declaration: BuildDeclaration? {
        lock.withLock {
            if let loaded { return loaded }
            let declaration = loadDeclaration()?.resolved(caseID: caseID)
            loaded = .some(declaration)
            return declaration
        }
    }
    private let loadDeclaration: @Sendable () -> BuildDeclaration?
    private var loaded: BuildDeclaration??
    private let lock = NSLock()
    private var status: LaunchStatus

    /// Starts collecting the status of one launch of build `buildID`.
    public convenience init(
        buildID: String, mode: LaunchMode, caseID: String, environment: AppEnvironment,
        declaration: BuildDeclaration? = nil
    ) {
        self.init(buildID: buildID, mode: mode, caseID: caseID, environment: environment, loading: { declaration })
    }

    /// A launch whose declaration `loading` reads when a hook first asks for it.
    public init(
        buildID: String, mode: LaunchMode, caseID: String, environment: AppEnvironment,
        loading: @escaping @Sendable () -> BuildDeclaration?
    ) {
        self.mode = mode
        self.caseID = caseID
        self.environment = environment
        self.loadDeclaration = loading
        status = LaunchStatus(build: buildID, mode: mode, caseID: caseID, runtime: environment.runtime)
        secrets = CaseSecrets(caseID: caseID, arguments: environment.arguments)
    }

    /// The case's secrets, derived from its id and the shapes the launch arguments give
    /// (`-UITestSecretShape`, ``SecretShape``); never written anywhere by the harness. One value for
    /// the whole launch, so that a label whose bytes the build asks for as text is noted in the
    /// status file (``LaunchStatus/textReadsOfBytes``).
    public let secrets: CaseSecrets

    /// The labels `-UITestSeedMalformedStore` names, or nil when it names none (every store malformed).
    public var malformedStores: Set<String>? {
        let arguments = environment.arguments
        let labels = arguments.indices.dropLast().filter { arguments[$0] == LaunchMode.malformedStoreArgument }
            .map { arguments[$0 + 1] }
        return labels.isEmpty ? nil : Set(labels)
    }

    /// Whether a `-UITestSeedMalformed` launch writes the store of `label` malformed.
    public func malforms(_ label: String) -> Bool {
        mode == .seedMalformed && (malformedStores?.contains(label) ?? true)
    }

    /// The runtime every status in this launch stands beside.
    public var runtime: String { environment.runtime }
    /// The extension this launch runs as (its name, kind, host app), or nil for the app's own launch:
    /// an extension's executable calls `Harness.main` with an ``AppBuild`` as the app does, and gets the
    /// same hooks, status file and startup read under its own identity.
    public var appExtension: LaunchContext.AppExtension? { environment.appExtension }

    /// The label `name` stands for: itself, or the declared item one of whose `reportedAs`
    /// patterns it matches (``BuildDeclaration/label(forReportName:)``).
    public func label(forReportName name: String) -> String {
        declaration?.label(forReportName: name) ?? name
    }

    public func record(_ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32, _ result: ItemResult) {
        let check = ItemCheck(
            name: label(forReportName: name), location: location, operation: operation, status: status,
            runtime: runtime, result: result)
        lock.withLock { self.status.items.append(check) }
    }

    public func recordError(_ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32) {
        let check = ItemCheck(
            name: name, location: location, operation: operation, status: status,
            runtime: runtime, result: .failed)
        lock.withLock { self.status.errors.append(check) }
    }

    /// Records a read compared with the value the case expects (the comparison's outcome only).
    public func recordRead(
        _ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32,
        actual: Data?, expected: Data
    ) {
        record(name, location, operation, status, KeychainProbe.result(of: status, matches: actual == expected))
    }

    /// Sets what the migration did in this launch.
    public func setMigration(_ outcome: MigrationOutcome?) { lock.withLock { status.migration = outcome } }
    /// Sets what the reinstall sweep did.
    public func setSweep(_ sweep: SweepResult?) { lock.withLock { status.sweep = sweep } }
    /// Sets the schema version stored in the keychain when the launch ended.
    public func setSchemaVersion(_ version: Int?) { lock.withLock { status.schemaVersion = version } }
    /// Sets the legacy stores as the launch left them.
    public func setLegacy(_ legacy: LegacyState?) { lock.withLock { status.legacy = legacy } }

    /// Records what the app's first screen read (its startup read) as the status file's `startup`:
    /// each read's word against the case's value, never the value. A launch reports it once; the
    /// harness calls ``AppBuild/startupRead(_:)`` after the hook when the hook did not.
    public func reportStartup(_ reads: [SecretRead]) {
        let secrets = self.secrets
        let checks = reads.map {
            let label = label(forReportName: $0.label)
            return ItemCheck(
                name: label, location: $0.location, operation: $0.operation, status: $0.status,
                runtime: runtime, result: $0.result(expected: secrets.expected(label, matching: $0.value)))
        }
        lock.withLock { status.startup = checks }
    }

    /// Whether this launch has reported its startup read.
    public var reportedStartup: Bool { lock.withLock { status.startup != nil } }

    /// The status collected so far.
    public var currentStatus: LaunchStatus {
        let asked = secrets.textReadsOfBytes
        return lock.withLock {
            var status = status
            status.textReadsOfBytes = asked.isEmpty ? nil : asked
            return status
        }
    }
}
