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
            return configuration
        }
    }

    public let configuration: Configuration
    /// Why the store could not be opened; every call then answers this error's status.
    public let openError: KeychainOpenError?
    let store: KeychainStore?
    /// Serialises calls: one SecItem call at a time per keychain, as securityd does per client.
    private let lock = NSLock()
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
    private func call(
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

    private func report(_ error: SQLiteError) -> OSStatus {
        let status = Self.status(for: error)
        if status != errSecDuplicateItem {
            let path = store?.path ?? "keychain"
            FileHandle.standardError.write(Data("keychain \(path): \(error.message) (\(SecurityStatus(status)))\n".utf8))
        }
        return status
    }

    /// The names a call touches, for the mutation log: class, service and account, never a value.
    private static func subject(of entries: QueryEntries) -> SeamSubject {
        SeamSubject(store: entries.itemClass?.string ?? "?", service: entries.service ?? entries.server, account: entries.account)
    }

    // MARK: Identity and lock

    /// The identity's groups in securityd's order, worked out once (every call reads them).
    private let accessGroups: [String]

    private var lockView: LockStateView {
        let state = lockState
        return LockStateView(state)
    }

    /// Checks the entitlements a call needs (rows 9 and 11).
    private func checkEntitlement(_ query: ParsedQuery, isRead: Bool) throws(SecStatusFailure) {
        guard !accessGroups.isEmpty else { throw SecStatusFailure(errSecMissingEntitlement) }
        if let group = query.accessGroup, !accessGroups.contains(group) {
            // Before iOS 13 securityd did not check an explicit group on reads: the item was
            // simply not found (row 9).
            throw SecStatusFailure(isRead && configuration.runtime.major < 13 ? errSecItemNotFound : errSecMissingEntitlement)
        }
    }

    /// The rows a search query selects: its attributes, its group (or every group the app holds,
    /// row 8), its synchronizable match (row 13) and, as a plain filter, its accessibility (row 15).
    private func filter(for query: ParsedQuery) -> RowFilter {
        var filter = RowFilter()
        for (spec, value) in query.attributes {
            switch spec.kind {
            case .text, .blob: filter.require(bytesOf: spec.key, equal: value)  // row 44
            default: filter.require(spec.key, equals: value)
            }
        }
        if let group = query.accessGroup {
            filter.require("agrp", equals: .text(group))
        } else {
            filter.require("agrp", in: accessGroups.map { .text($0) })
        }
        // A persistent reference names one row whatever its sync flag (securityd adds `sync = 0`
        // only to queries without one: `query_create_with_limit` in SecDbQuery.c).
        switch query.sync ?? (query.persistentRef == nil ? .localOnly : .any) {
        case .localOnly: filter.require("sync", equals: .integer(0))
        case .syncedOnly: filter.require("sync", equals: .integer(1))
        case .any: break
        }
        if let accessibility = query.accessibility {
            filter.require("pdmn", equals: .text(accessibility.rawValue))
        }
        if let reference = query.persistentRef {
            filter.require("rowid", equals: .integer(reference.rowid))
        }
        return filter
    }

    /// What results look like on this keychain's runtime (row 49).
    private var resultBuilder: ResultBuilder { ResultBuilder(runtime: configuration.runtime) }

    // MARK: SecItemAdd

    private func addItem(
        _ attributes: QueryEntries, _ result: UnsafeMutablePointer<CFTypeRef?>?,
        _ store: KeychainStore
    ) throws {
        let query = try QueryParser.parse(attributes)
        // Identities need a SecIdentity reference; passwords cannot be added by reference (row 23);
        // a match limit in an add is refused rather than silently ignored (row 41, our choice).
        guard query.itemClass != .identity, !query.valueRef, query.persistentRef == nil,
            query.limit == nil, !query.otherMatchKeys
        else { throw SecStatusFailure(errSecParam) }
        if case .some(.none) = query.valueData { throw SecStatusFailure(errSecParam) }  // row 25
        let synchronizable: Bool
        switch query.sync {
        case .any: throw SecStatusFailure(errSecParam)
        case .syncedOnly: synchronizable = true
        case .localOnly, nil: synchronizable = false
        }
        let accessibility = try resolvedAccessibility(query, default: query.itemClass.defaultAccessibility)
        // Items with access control are not synchronizable (the client's check). ThisDeviceOnly
        // with sync is accepted: securityd has no such check (row 14; the seed said errSecParam,
        // and where the seeds and iOS disagree, iOS wins).
        if synchronizable && query.accessControl != nil {
            throw SecStatusFailure(errSecParam)
        }
        try checkEntitlement(query, isRead: false)
        if accessibility == .whenPasscodeSetThisDeviceOnly && !configuration.passcodeSet {
            throw SecStatusFailure(errSecAuthFailed)  // row 40
        }
        // The class key is needed to encrypt: the lock error wins over a duplicate (row 35).
        guard accessibility.isAvailable(in: lockView) else { throw SecStatusFailure(errSecInteractionNotAllowed) }

        let now = SQLiteValue.real(configuration.clock().timeIntervalSinceReferenceDate)
        var row = NewRow(query.itemClass)
        let layout = row.layout
        for spec in query.itemClass.primaryKey { row[spec.column] = spec.defaultValue }  // row 4
        row[layout.cdat] = now
        row[layout.mdat] = now
        for (spec, value) in query.attributes { row[spec.column] = value }
        row[layout.agrp] = .text(query.accessGroup ?? accessGroups[0])  // row 7
        row[layout.sync] = .integer(synchronizable ? 1 : 0)
        row[layout.pdmn] = .text(accessibility.rawValue)
        if case .some(.some(let data)) = query.valueData { row[layout.data] = .blob(data) }
        if let control = query.accessControl { row[layout.accc] = .text(AccessControlCoding.encode(control)) }
        let rowid: Int64
        do {
            rowid = try store.insert(row)
        } catch {
            throw Self.duplicateIfConstraint(error)  // row 5
        }
        guard !query.returns.isEmpty else { return }
        result?.pointee = resultBuilder.result(
            for: [row.stored(rowid: rowid)], itemClass: query.itemClass, returns: query.returns, limit: .one)
    }

    /// A key collision is errSecDuplicateItem (rows 5 and 29); other SQLite errors pass on.
    private static func duplicateIfConstraint(_ error: SQLiteError) -> any Error {
        error.isKeyCollision ? SecStatusFailure(errSecDuplicateItem) : error
    }

    /// The protection class an add or update asks for: from its access control, else from
    /// `kSecAttrAccessible`, else `fallback`. Both, disagreeing, is errSecParam.
    private func resolvedAccessibility(
        _ query: ParsedQuery, default fallback: Accessibility?
    ) throws(SecStatusFailure) -> Accessibility {
        if let control = query.accessControl {
            guard let fromControl = Accessibility(rawValue: control.protection) else { throw SecStatusFailure(errSecParam) }
            if let explicit = query.accessibility, explicit != fromControl { throw SecStatusFailure(errSecParam) }
            return fromControl
        }
        if let explicit = query.accessibility { return explicit }
        guard let fallback else { throw SecStatusFailure(errSecParam) }
        return fallback
    }

    // MARK: SecItemCopyMatching

    private func copyItems(
        _ queryDictionary: QueryEntries, _ result: UnsafeMutablePointer<CFTypeRef?>?,
        _ store: KeychainStore
    ) throws {
        let query = try QueryParser.parse(queryDictionary)
        try checkEntitlement(query, isRead: true)
        guard query.itemClass != .identity else { throw SecStatusFailure(errSecItemNotFound) }
        let limit = query.limit ?? .one  // row 20
        var filter = filter(for: query)
        if query.returns == .data {
            // An item without data has nothing to return for data alone (row 24; Valet relies on it).
            filter.conditions.append("data IS NOT NULL")
        }
        let rows = try store.select(from: query.itemClass, filter, limit: limit.rowLimit)
        guard !rows.isEmpty else { throw SecStatusFailure(errSecItemNotFound) }  // rows 20, 36
        // Each returned row must be decrypted (even for attributes only, row 34); the first that
        // cannot be stops the call (row 37).
        let view = lockView
        for row in rows where !(row.accessibility?.isAvailable(in: view) ?? false) {
            throw SecStatusFailure(errSecInteractionNotAllowed)
        }
        result?.pointee = resultBuilder.result(for: rows, itemClass: query.itemClass, returns: query.returns, limit: limit)
    }

    // MARK: SecItemUpdate

    private func updateItems(
        _ queryDictionary: QueryEntries, _ attributesDictionary: CFDictionary,
        _ store: KeychainStore
    ) throws {
        let query = try QueryParser.parse(queryDictionary)
        // iOS refuses return keys (row 26) and any match key (row 27) in an update's query.
        guard query.returns.isEmpty, query.limit == nil, !query.otherMatchKeys else { throw SecStatusFailure(errSecParam) }
        let changes = try QueryParser.parseUpdate(attributesDictionary, for: query.itemClass)
        if case .some(.none) = changes.valueData { throw SecStatusFailure(errSecParam) }  // row 25
        if changes.sync == .any { throw SecStatusFailure(errSecParam) }
        try checkEntitlement(query, isRead: false)
        if let group = changes.accessGroup, !accessGroups.contains(group) {
            // Moving an item into a group the app does not hold (row 10).
            throw SecStatusFailure(configuration.runtime.major < 13 ? errSecNoAccessForItem : errSecMissingEntitlement)
        }
        guard query.itemClass != .identity else { throw SecStatusFailure(errSecItemNotFound) }
        let newAccessibility: Accessibility? =
            changes.accessControl != nil || changes.accessibility != nil
            ? try resolvedAccessibility(changes, default: nil) : nil
        if newAccessibility == .whenPasscodeSetThisDeviceOnly && !configuration.passcodeSet {
            throw SecStatusFailure(errSecAuthFailed)
        }

        var assignments: [(String, SQLiteValue)] = changes.attributes.map { ($0.spec.key, $0.value) }
        if let group = changes.accessGroup { assignments.append(("agrp", .text(group))) }
        if let newAccessibility { assignments.append(("pdmn", .text(newAccessibility.rawValue))) }
        if let control = changes.accessControl { assignments.append(("accc", .text(AccessControlCoding.encode(control)))) }
        if case .some(.some(let data)) = changes.valueData { assignments.append(("data", .blob(data))) }
        if let sync = changes.sync { assignments.append(("sync", .integer(sync == .syncedOnly ? 1 : 0))) }
        if !assignments.contains(where: { $0.0 == "mdat" }) {
            assignments.append(("mdat", .real(configuration.clock().timeIntervalSinceReferenceDate)))  // row 28
        }

        try store.database.transaction(immediate: true) {
            let rows = try store.select(from: query.itemClass, filter(for: query), limit: nil)  // row 28: all matches
            guard !rows.isEmpty else { throw SecStatusFailure(errSecItemNotFound) }
            let view = lockView
            for row in rows {
                // Re-encryption needs the item's class key and the new one (row 38).
                guard let current = row.accessibility, current.isAvailable(in: view),
                    newAccessibility?.isAvailable(in: view) ?? true
                else {
                    throw SecStatusFailure(errSecInteractionNotAllowed)
                }
                let synced = changes.sync.map { $0 == .syncedOnly } ?? row.isSynchronizable
                // As for an add: items with access control never sync; ThisDeviceOnly may (row 14).
                let controlled = changes.accessControl != nil || row["accc"].map { $0 != .null } == true
                if synced && controlled { throw SecStatusFailure(errSecParam) }
            }
            for row in rows {
                do throws(SQLiteError) {
                    try store.update(query.itemClass, rowid: row.rowid, assignments)
                } catch {
                    throw Self.duplicateIfConstraint(error)  // row 29: the whole update rolls back
                }
            }
        }
    }

    // MARK: SecItemDelete

    private func deleteItems(_ queryDictionary: QueryEntries, _ store: KeychainStore) throws {
        let query = try QueryParser.parse(queryDictionary)
        guard query.limit == nil, !query.otherMatchKeys else { throw SecStatusFailure(errSecParam) }  // row 27
        try checkEntitlement(query, isRead: false)
        guard query.itemClass != .identity else { throw SecStatusFailure(errSecItemNotFound) }
        try store.database.transaction(immediate: true) {
            let rows = try store.select(from: query.itemClass, filter(for: query), limit: nil)  // row 31
            guard !rows.isEmpty else { throw SecStatusFailure(errSecItemNotFound) }
            let view = lockView
            // Deleting needs no class key for local items (row 39); a synchronizable item's
            // tombstone does, so those answer the lock error.
            for row in rows where row.isSynchronizable && !(row.accessibility?.isAvailable(in: view) ?? false) {
                throw SecStatusFailure(errSecInteractionNotAllowed)
            }
            for row in rows {
                try store.delete(query.itemClass, rowid: row.rowid)
            }
        }
    }
}

/// `kSecValuePersistentRef` values: the class's four letters and the row's id, big-endian.
/// Rowids are never reused (AUTOINCREMENT), so a reference never names a later item.
enum PersistentReference {
    static func encode(_ itemClass: ItemClass, rowid: Int64) -> Data {
        var data = Data(itemClass.rawValue.utf8)
        withUnsafeBytes(of: rowid.bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    static func decode(_ data: Data) -> (ItemClass, Int64)? {
        let bytes = [UInt8](data)
        guard bytes.count == 12, let itemClass = ItemClass(rawValue: String(decoding: bytes[0..<4], as: UTF8.self)) else {
            return nil
        }
        let rowid = bytes[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return (itemClass, rowid)
    }
}

/// Stores an access-control object in the `accc` column as `protection;flags`.
enum AccessControlCoding {
    static func encode(_ control: SecAccessControl) -> String { "\(control.protection);\(control.flags.rawValue)" }

    static func decode(_ text: String) -> SecAccessControl? {
        let parts = text.split(separator: ";")
        guard parts.count == 2, let flags = UInt(parts[1]) else { return nil }
        return SecAccessControl(protection: String(parts[0]), flags: SecAccessControlCreateFlags(rawValue: flags))
    }
}
