import Foundation
import SimRuntime

/// One simulated keychain: a store, the calling app's identity, the device's lock state and
/// runtime version, and the seam every call passes through.
///
/// The `SecItem*` functions act on ``current``. Code that needs no particular set-up gets an
/// in-memory store and the ``AppIdentity/testHost`` identity. A test, or a keychain library's own
/// test suite, chooses its own:
///
/// ```swift
/// let keychain = Keychain(.init(storage: .file(path), identity: identity, lockState: .fixed(.locked),
///                               runtime: RuntimeVersion("iOS 12.4")!))
/// Keychain.withCurrent(keychain) {
///     SecItemCopyMatching(query as CFDictionary, &result)   // acts on `keychain`
/// }
/// ```
/// An app process launched by a simulated device uses the device's keychain file, the identity
/// from its install record and the device's lock state, read from its launch context.
public final class Keychain: @unchecked Sendable {
    /// Where the items live.
    public enum Storage: Hashable, Sendable {
        /// A private SQLite database in memory, gone with the ``Keychain`` value.
        case inMemory
        /// An SQLite database file, created when missing (its folder must exist).
        case file(String)
    }

    /// What a committed SecItem call must survive. Both keep every call all-or-nothing (one
    /// transaction each, WAL).
    public enum Durability: Sendable, Equatable {
        /// A power loss (SQLite `synchronous = NORMAL`: the log is synced at checkpoints). The default.
        case powerLoss
        /// Only the process being killed (`synchronous = OFF`: no sync at all; the kernel keeps
        /// what a killed process wrote). A simulated device's crash model: its apps end by SIGKILL,
        /// never by the machine losing power, and a sync per launch dominated a gate's time.
        case processKill
    }

    /// Everything a keychain needs to know about the device and the calling app.
    public struct Configuration: Sendable {
        public var storage: Storage
        public var identity: AppIdentity
        public var lockState: LockStateSource
        public var runtime: RuntimeVersion
        public var clock: @Sendable () -> Date
        /// Whether the device has a passcode (items of class WhenPasscodeSetThisDeviceOnly need one).
        public var passcodeSet: Bool
        /// Whether the calling process runs in the foreground, where iOS can show a Face ID, Touch ID
        /// or passcode prompt (an app's own launch); false for a background launch, which can never
        /// prompt. A prompt also needs the device unlocked (``Keychain/canPrompt``).
        public var foreground = true
        /// The device's biometry enrollment generation: `device biometry --change` moves it, and an
        /// item added with `.biometryCurrentSet` under another generation is invalidated.
        public var biometryGeneration = 1
        public var seam: Seam
        /// What a committed call must survive (see ``Durability``); a launched app's store only
        /// ever ends by its process being killed.
        public var durability: Durability = .powerLoss
        /// Whether a store that cannot be opened is reported on standard error (an app's log).
        /// Host-side readers that report ``Keychain/openError`` themselves turn it off, so that
        /// the problem is told once.
        public var reportsOpenError = true

        public init(
            storage: Storage = .inMemory, identity: AppIdentity = .testHost,
            lockState: LockStateSource = .fixed(.unlocked), runtime: RuntimeVersion = .current,
            clock: @escaping @Sendable () -> Date = { Date() }, passcodeSet: Bool = true,
            seam: Seam = Seam()
        ) {
            self.storage = storage
            self.identity = identity
            self.lockState = lockState
            self.runtime = runtime
            self.clock = clock
            self.passcodeSet = passcodeSet
            self.seam = seam
        }

        /// What a launched app uses: the context's keychain file, identity, lock-state file,
        /// runtime and clock, and the process's seam.
        public static func launched(_ context: LaunchContext) -> Configuration {
            let clock = context.clock
            var configuration = Configuration(
                storage: .file(context.keychainPath), identity: context.identity,
                lockState: .file(context.lockStatePath), runtime: context.runtime,
                clock: { clock }, passcodeSet: context.passcodeSet, seam: .process)
            configuration.durability = .processKill
            configuration.foreground = !(context.background ?? false)
            configuration.biometryGeneration = context.biometryGeneration ?? 1
            return configuration
        }
    }

    public let configuration: Configuration
    /// Why the store could not be opened; every call then answers this error's status.
    public let openError: KeychainOpenError?
    let store: KeychainStore?
    /// Serialises calls: one SecItem call at a time per keychain, as securityd does per client.
    let lock = NSLock()
    private let overrideLock = NSLock()
    private var lockStateOverride: LockState?

    /// Opens (or creates) the store. A store that cannot be used is reported once on standard
    /// error, naming the file; the process goes on and every call answers the error's status.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        accessGroups = configuration.identity.accessGroups
        do {
            switch configuration.storage {
            case .inMemory: store = try KeychainStore(path: ":memory:", inMemory: true)
            case .file(let path):
                store = try KeychainStore(path: path, inMemory: false, syncs: configuration.durability == .powerLoss)
            }
            openError = nil
        } catch {
            store = nil
            openError = error
            if configuration.reportsOpenError { FileHandle.standardError.write(Data("\(error)\n".utf8)) }
        }
    }

    /// The lock state now.
    public var lockState: LockState {
        overrideLock.withLock { lockStateOverride } ?? configuration.lockState.current
    }

    /// Sets the lock state in-process, overriding the configured source.
    public func setLockState(_ state: LockState) {
        overrideLock.withLock { lockStateOverride = state }
    }

    /// Whether the simulated device runs `version` or later: what
    /// `ProcessInfo.isOperatingSystemAtLeast` answers on the device (on Linux it reads the kernel's).
    public func isRuntimeAtLeast(_ version: OperatingSystemVersion) -> Bool {
        configuration.runtime >= RuntimeVersion(major: version.majorVersion, minor: version.minorVersion)
    }

    // MARK: Which keychain the SecItem functions use

    @TaskLocal private static var taskOverride: Keychain?
    private static let processLock = NSLock()
    nonisolated(unsafe) private static var processKeychain: Keychain?

    /// The keychain the `SecItem*` functions act on: the one bound by ``withCurrent(_:_:)`` in
    /// this task, else the process's (set by ``setProcessDefault(_:)``, else from the launch
    /// context, else as ``TestHostEnvironment``'s variables say, by default an in-memory store
    /// for the test host).
    public static var current: Keychain {
        if let bound = taskOverride { return bound }
        return processLock.withLock {
            if let keychain = processKeychain { return keychain }
            let made = Keychain(
                LaunchContext.current.map { Configuration.launched($0) } ?? TestHostEnvironment.processConfiguration())
            processKeychain = made
            return made
        }
    }

    /// Makes `keychain` the process's default.
    public static func setProcessDefault(_ keychain: Keychain) {
        processLock.withLock { processKeychain = keychain }
    }

    /// Runs `body` with `keychain` as ``current`` for this task and the tasks it starts.
    ///
    /// The binding is task-local: code that `body` hands to a `Thread` or a `DispatchQueue` runs
    /// outside it and uses the process default; set that with ``setProcessDefault(_:)`` instead.
    public static func withCurrent<T>(_ keychain: Keychain, _ body: () throws -> T) rethrows -> T {
        try $taskOverride.withValue(keychain, operation: body)
    }

    /// Runs async `body` with `keychain` as ``current``.
    public static func withCurrent<T>(_ keychain: Keychain, _ body: () async throws -> T) async rethrows -> T {
        try await $taskOverride.withValue(keychain, operation: body)
    }

    // MARK: Calls

    /// `SecItemAdd` on this keychain.
    public func add(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        call(.secItemAdd, attributes) { entries, store in try self.addItem(entries, result, store) }
    }

    /// `SecItemCopyMatching` on this keychain.
    public func copyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
        call(.secItemCopyMatching, query) { entries, store in try self.copyItems(entries, result, store) }
    }

    /// `SecItemUpdate` on this keychain.
    public func update(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
        call(.secItemUpdate, query) { entries, store in try self.updateItems(entries, attributesToUpdate, store) }
    }

    /// `SecItemDelete` on this keychain.
    public func delete(_ query: CFDictionary) -> OSStatus {
        call(.secItemDelete, query) { entries, store in try self.deleteItems(entries, store) }
    }

    /// Runs one call through the seam, serialised with the other calls of this process. The
    /// query's entries are read once, for the seam's log and for the call.
    func call(
        _ operation: StoreOperation, _ query: CFDictionary,
        _ body: (QueryEntries, KeychainStore) throws -> Void
    ) -> OSStatus {
        let entries = QueryEntries(query)
        return configuration.seam.perform(operation, Self.subject(of: entries)) {
            lock.withLock {
                guard let store else { return openError?.status ?? errSecNotAvailable }
                // No keychain group at all: refused before the query is read (row 47).
                guard !accessGroups.isEmpty else { return errSecMissingEntitlement }
                do {
                    try body(try entries.checked(), store)
                    return errSecSuccess
                } catch let failure as SecStatusFailure {
                    return failure.status
                } catch let error as SQLiteError {
                    return report(error)
                } catch {
                    return errSecIO
                }
            }
        }
    }

    /// Runs `body` holding this keychain's call lock.
    func lockedStore<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }

    /// The one mapping of SQLite failures to keychain answers: a key collision is a duplicate
    /// item, a damaged file errSecDecode, anything else errSecIO (and one line on standard error).
    static func status(for error: SQLiteError) -> OSStatus {
        if error.isKeyCollision { return errSecDuplicateItem }
        switch error.code {
        case .corrupt, .notADatabase: return errSecDecode
        default: return errSecIO
        }
    }

    func report(_ error: SQLiteError) -> OSStatus {
        let status = Self.status(for: error)
        if status != errSecDuplicateItem {
            let path = store?.path ?? "keychain"
            FileHandle.standardError.write(Data("keychain \(path): \(error.message) (\(SecurityStatus(status)))\n".utf8))
        }
        return status
    }

    /// The names a call touches, for the mutation log: class, service and account, never a value.
    static func subject(of entries: QueryEntries) -> SeamSubject {
        SeamSubject(store: entries.itemClass?.string ?? "?", service: entries.service ?? entries.server, account: entries.account)
    }

    // MARK: Identity and lock

    /// The identity's groups in securityd's order, worked out once (every call reads them).
    let accessGroups: [String]

    var lockView: LockStateView {
        let state = lockState
        return LockStateView(state)
    }

    /// Whether a call can show an authentication prompt now: a foreground launch on an unlocked
    /// device (a locked device shows no app's prompt; a background launch never does).
    var canPrompt: Bool { configuration.foreground && lockState == .unlocked }
}
