import AppHarness
import Foundation
import LedgerKit
import SimRuntime
import SimSecurity
import Testing

/// Seed 000's in-memory keychain mock, with an injectable status.
actor InMemoryMigrationKeychain: MigrationKeychainProtocol {
    private var rows: [String: Data] = [:]
    private var injected: OSStatus?

    func inject(_ status: OSStatus?) { injected = status }

    func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        if let injected { throw KeychainFailure(injected, operation: "SecItemAdd") }
        rows[account] = data
        return "SecItemAdd"
    }
    func read(account: String) throws(KeychainFailure) -> Data? { rows[account] }
    func delete(account: String) throws(KeychainFailure) { rows[account] = nil }
}

/// Preferences in memory, with the argument domain left out.
final class MemoryDefaults: AppDefaults, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Any]
    init(_ values: [String: Any] = [:]) { self.values = values }
    func object(forKey key: String) -> Any? { lock.withLock { values[key] } }
    func string(forKey key: String) -> String? { object(forKey: key) as? String }
    func bool(forKey key: String) -> Bool { object(forKey: key) as? Bool ?? false }
    func set(_ value: Any?, forKey key: String) -> Bool { lock.withLock { values[key] = value }; return true }
    func removeObject(forKey key: String) -> Bool { set(nil, forKey: key) }
    func persistentDomain() -> [String: Any] { lock.withLock { values } }
}

struct FixedGate: ProtectedDataGate {
    var isAvailable: Bool
    func waitUntilAvailable(timeout: Double) async -> Bool { isAvailable }
}

@Suite struct PartsTests {
    @Test("seed 000: a locked write leaves the plaintext for a retry")
    func lockedWriteLeavesPlaintextForRetry() async throws {
        let defaults = MemoryDefaults(["refreshToken": "refresh-abc"])
        let vault = InMemoryMigrationKeychain()
        await vault.inject(errSecInteractionNotAllowed)
        let mover = DefaultsToKeychainMover(vault: vault, defaults: defaults, journal: SilentJournal())
        let report = await mover.move(keys: ["refreshToken"])
        #expect(defaults.string(forKey: "refreshToken") == "refresh-abc")
        #expect(report["refreshToken"] == .failed(operation: "SecItemAdd", status: errSecInteractionNotAllowed))
        await vault.inject(nil)
        #expect(await mover.move(keys: ["refreshToken"])["refreshToken"] == .moved)
        #expect(defaults.object(forKey: "refreshToken") == nil)
        #expect(try await vault.read(account: "refreshToken") == Data("refresh-abc".utf8))
    }

    @Test("a value of the wrong type is malformed input: kept, not converted", arguments: ["number", "bytes", "array"])
    func wrongTypeKept(_ kind: String) async throws {
        let value: Any =
            switch kind {
            case "number": NSNumber(value: 42)
            case "bytes": Data([0xFF, 0xFE])
            default: ["a"]
            }
        let defaults = MemoryDefaults(["authToken": value])
        let vault = InMemoryMigrationKeychain()
        let mover = DefaultsToKeychainMover(vault: vault, defaults: defaults, journal: SilentJournal())
        #expect(await mover.move(keys: ["authToken"])["authToken"] == .failed(operation: "decode", status: errSecDecode))
        #expect(defaults.object(forKey: "authToken") != nil)
        #expect(try await vault.read(account: "authToken") == nil)
    }

    @Test("a stored schema above the target is too new: no step runs and the stored version stays")
    func migratorTooNew() async throws {
        let vault = InMemoryMigrationKeychain()
        _ = try await vault.save(Data("5".utf8), account: LedgerNames.versionAccount, accessibility: "cku")
        let defaults = MemoryDefaults(["authToken": "a"])
        let mover = DefaultsToKeychainMover(vault: vault, defaults: defaults, journal: SilentJournal())
        let migrator = SchemaMigrator(
            targetVersion: 2, steps: [MoveDefaultsStep(mover: mover)], vault: vault,
            protectedData: FixedGate(isAvailable: true))
        let state = await migrator.migrateIfNeeded()
        #expect(state == .tooNew(stored: 5, target: 2))
        #expect(state.outcome == MigrationOutcome(state: .tooNew, from: 5, to: 2))
        #expect(try await migrator.storedVersion() == 5)
        #expect(defaults.object(forKey: "authToken") != nil)
        #expect(try await vault.read(account: "authToken") == nil)
    }

    @Test("the migrator defers while protected data is unavailable and advances the version only when every step ran")
    func migratorGate() async throws {
        let vault = InMemoryMigrationKeychain()
        let defaults = MemoryDefaults(["authToken": "a", "refreshToken": 7])
        let mover = DefaultsToKeychainMover(vault: vault, defaults: defaults, journal: SilentJournal())
        let locked = SchemaMigrator(
            targetVersion: 1, steps: [MoveDefaultsStep(mover: mover)], vault: vault,
            protectedData: FixedGate(isAvailable: false))
        #expect(await locked.migrateIfNeeded() == .deferred(reason: "protected data unavailable"))
        #expect(defaults.object(forKey: "authToken") != nil)
        let open = SchemaMigrator(
            targetVersion: 1, steps: [MoveDefaultsStep(mover: mover)], vault: vault,
            protectedData: FixedGate(isAvailable: true))
        let state = await open.migrateIfNeeded()
        #expect(state == .failed(from: 0, at: 0, reason: "step 0->1: keysLeftBehind(1) decode -26275"))
        #expect(try await open.storedVersion() == 0)
        _ = defaults.set("r", forKey: "refreshToken")
        #expect(await open.migrateIfNeeded() == .migrated(from: 0, to: 1))
        #expect(await open.migrateIfNeeded() == .upToDate)
    }

    @Test(
        "the janitor's window: the stamp is written once, and 30 days must pass",
        arguments: [
            (29.9, false), (30.0, false), (30.01, true),
        ])
    func janitorWindow(_ days: Double, _ elapsed: Bool) async throws {
        let vault = InMemoryMigrationKeychain()
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("janitor-\(UUID().uuidString)")
        let janitor = LegacyArtefactJanitor(vault: vault, files: MemoryFiles(), documents: folder, journal: SilentJournal())
        let start = Date(timeIntervalSince1970: 1_714_521_600)
        await janitor.stampIfNeeded(now: start)
        await janitor.stampIfNeeded(now: start.addingTimeInterval(86_400))
        #expect(try await vault.read(account: "vault.migratedAt") == Data("2024-05-01T00:00:00Z".utf8))
        #expect(await janitor.sweepIfWindowElapsed(now: start.addingTimeInterval(days * 86_400)) == elapsed)
    }
}

/// Files that never exist (the janitor's window is what is under test).
struct MemoryFiles: AppFiles {
    func write(_ data: Data, to url: URL) throws(AppFileError) {}
    func read(_ url: URL) throws(AppFileError) -> Data { throw AppFileError(path: url.path, code: ENOENT) }
    func remove(_ url: URL) throws(AppFileError) { throw AppFileError(path: url.path, code: ENOENT) }
    func fileExists(_ url: URL) -> Bool { false }
}
