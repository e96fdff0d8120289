import AppHarness
import Foundation
import LedgerRelease1
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// What a migration did in one launch (seed 000's `MigrationState`).
public enum MigrationState: Sendable, Equatable {
    case upToDate
    case migrated(from: Int, to: Int)
    case deferred(reason: String)
    /// `at` is the step that failed (its starting version); the stored version did not move.
    case failed(from: Int, at: Int, reason: String)
    /// The stored schema is newer than this build's target (a downgrade, or a release beside a
    /// newer one on the same keychain): the build ran no step and changed nothing, since its steps
    /// know nothing of that schema's stores.
    case tooNew(stored: Int, target: Int)

    /// The status file's form of it: names and codes only.
    public var outcome: MigrationOutcome {
        switch self {
        case .upToDate: MigrationOutcome(state: .upToDate)
        case .migrated(let from, let to): MigrationOutcome(state: .migrated, from: from, to: to)
        case .deferred(let reason): MigrationOutcome(state: .deferred, reason: reason)
        case .failed(let from, let at, let reason): MigrationOutcome(state: .failed, from: from, to: at, reason: reason)
        case .tooNew(let stored, let target): MigrationOutcome(state: .tooNew, from: stored, to: target)
        }
    }
}

/// Why a step stopped. Each case names the thing and the code, never a value.
public enum MigrationError: Error, Equatable, CustomStringConvertible {
    case keysLeftBehind(Int, operation: String, status: OSStatus)
    case corruptArchive(status: OSStatus)
    case readBackMismatch(String)
    case keychain(KeychainFailure)
    case file(AppFileError, operation: String)

    public var description: String {
        switch self {
        case .keysLeftBehind(let count, let operation, let status): "keysLeftBehind(\(count)) \(operation) \(status)"
        case .corruptArchive(let status): "corruptArchive NSKeyedUnarchiver \(status)"
        case .readBackMismatch(let account): "readBackMismatch \(account)"
        case .keychain(let failure): "keychain \(failure.operation) \(failure.status)"
        case .file(let error, let operation): "file \(operation) errno \(error.code)"
        }
    }
}

/// One step of the schema: it moves the data from version `from` to `from + 1`. Steps are
/// idempotent: a step that ran half-way (a crash, a failure) is run again from the start.
public protocol MigrationStep: Sendable {
    var from: Int { get }
    func run() async throws(MigrationError)
}

/// Seed 000's versioned migration: the schema version lives in the keychain (it survives a
/// reinstall with the items it describes), the migration is gated on protected data, the steps
/// run in order from the stored version, and the version is saved only after every step succeeded.
/// A stored version above the target is answered `tooNew`, not `upToDate`: nothing runs or changes.
///
/// A step that fails does not stop the steps after it: each moves its own store, so a malformed
/// preference must not keep a valid session archive from migrating (the gate's malformed matrix).
/// The version stays where it was and the launch reports the first failed step; every step is
/// idempotent, so the next launch runs them all again and the failed one is retried.
public actor SchemaMigrator {
    public let targetVersion: Int
    private let steps: [Int: any MigrationStep]
    private let vault: any MigrationKeychainProtocol
    private let protectedData: any ProtectedDataGate
    private let stopsAtFirstFailure: Bool

    /// - Parameters:
    ///   - steps: one step per version below `targetVersion`.
    ///   - stopsAtFirstFailure: the anti-pattern of mutant `malformed-stops-migration`: a failed
    ///     step skips every later one, so one malformed store keeps the valid ones from migrating.
    public init(
        targetVersion: Int, steps: [any MigrationStep], vault: any MigrationKeychainProtocol,
        protectedData: any ProtectedDataGate, stopsAtFirstFailure: Bool = false
    ) {
        self.targetVersion = targetVersion
        self.steps = Dictionary(steps.map { ($0.from, $0) }, uniquingKeysWith: { first, _ in first })
        self.vault = vault
        self.protectedData = protectedData
        self.stopsAtFirstFailure = stopsAtFirstFailure
    }

    public func migrateIfNeeded() async -> MigrationState {
        guard protectedData.isAvailable else { return .deferred(reason: "protected data unavailable") }
        let current: Int
        do {
            current = try await storedVersion()
        } catch {
            return .deferred(reason: "\(LedgerNames.versionAccount) \(error.operation) \(error.status)")
        }
        guard current <= targetVersion else { return .tooNew(stored: current, target: targetVersion) }
        guard current < targetVersion else { return .upToDate }
        var failure: MigrationState?
        for step in current..<targetVersion {
            do {
                guard let migration = steps[step] else { throw MigrationError.readBackMismatch("no step \(step)") }
                try await migration.run()
            } catch {
                failure = failure ?? .failed(from: current, at: step, reason: "step \(step)->\(step + 1): \(error)")
                if stopsAtFirstFailure { break }
            }
        }
        if let failure { return failure }
        do {
            try await vault.save(
                Data(String(targetVersion).utf8), account: LedgerNames.versionAccount,
                accessibility: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String)
        } catch {
            return .failed(from: current, at: targetVersion, reason: "\(LedgerNames.versionAccount) \(error)")
        }
        return .migrated(from: current, to: targetVersion)
    }

    /// The stored version: 0 when there is none. A locked or failing read throws: it is never
    /// taken for "version 0", which would rerun every step over migrated data.
    public func storedVersion() async throws(KeychainFailure) -> Int {
        guard let raw = try await vault.read(account: LedgerNames.versionAccount) else { return 0 }
        return Int(String(decoding: raw, as: UTF8.self)) ?? 0
    }
}
