import Foundation
import SimRuntime

/// What two keychains agreed on when they last synced (iCloud Keychain between two devices of one
/// user): each synced item's identity and content, each as a digest the caller makes (keyed, so the
/// state names no secret). A sync compares each side with it to tell an add, a change and a delete
/// (a delete is a tombstone: an item both held that one side no longer holds).
public struct KeychainSyncState: Codable, Equatable, Sendable {
    /// The content digest of each synced item, by its identity digest.
    public var items: [String: String]

    public init(items: [String: String] = [:]) { self.items = items }
}

/// What one sync did, counts only (docs/simsecurity.md, rows 54-57).
public struct KeychainSyncOutcome: Equatable, Sendable {
    /// Items added, changed and deleted on one side.
    public struct Changes: Equatable, Sendable {
        public var added = 0
        public var updated = 0
        public var deleted = 0
        public var total: Int { added + updated + deleted }
    }

    /// What arrived on this keychain (from the other), and on the other (from this one).
    public var here = Changes()
    public var there = Changes()
    /// Items that both sides changed (or added) differently since the last sync: the later
    /// modification date won; at equal dates, this keychain's item (the side the sync starts from).
    public var conflicts = 0
    /// Incoming items not applied because an item that does not travel (ThisDeviceOnly, or with an
    /// access control object) holds the same primary key on the receiving side: it stays.
    public var keptLocal = 0
    /// The synchronizable items that travel, on both sides after the sync.
    public var synced = 0
    /// What both sides agree on now: the state the next sync starts from.
    public var state = KeychainSyncState()
}

extension Keychain {
    /// Whether an item travels through iCloud Keychain: synchronizable (`sync` 1), of a class that
    /// leaves the device (not `…ThisDeviceOnly`: "those cannot sync to another device",
    /// `kSecAttrAccessible`), without an access control object (row 14: such an item is not
    /// synchronizable), and a password unless both devices sync keys and certificates too (iOS 14 on:
    /// `kSecAttrSynchronizable`, "Earlier OS versions synchronize only passwords").
    static func travelsBySync(_ row: StoredRow, itemClass: ItemClass, passwordsOnly: Bool) -> Bool {
        guard row.isSynchronizable, let accessibility = row.accessibility, !accessibility.isThisDeviceOnly else { return false }
        if let accc = row["accc"], accc != .null { return false }
        return !passwordsOnly || itemClass == .genericPassword || itemClass == .internetPassword
    }

    /// One item as the sync sees it: where it is, and its identity and content digests.
    private struct SyncRow {
        var itemClass: ItemClass
        var row: StoredRow
        var content: String
        var modified: Double
    }

    /// Syncs this keychain's synchronizable items with `other`'s both ways, as iCloud Keychain does
    /// between two devices of one user (docs/simsecurity.md, rows 54-57):
    /// - an item that travels (``travelsBySync(_:itemClass:passwordsOnly:)``) and that one side added or
    ///   changed since `base` is added or replaced on the other, every column as it is (attributes,
    ///   data, dates); the copy is a new row, so a persistent reference does not follow it (Apple:
    ///   "Do not use persistent references to synchronizable items");
    /// - one that a side deleted since `base` (both held it then) is deleted on the other, unless the
    ///   other changed it since: a change beats a concurrent delete, and travels back;
    /// - both sides changed it differently (or added it differently with no `base`): the later
    ///   modification date (`mdat`) wins; at equal dates this keychain's (the side the sync starts from);
    /// - an incoming item whose primary key a non-travelling item holds on the receiving side is not
    ///   applied (``KeychainSyncOutcome/keptLocal``); items that do not travel are never touched.
    ///
    /// Each keychain changes in one transaction (all or nothing): the other's first, then this one's.
    /// If this one's fails after the other's committed, the caller keeps `base` (the state is
    /// returned only on success), and the next sync converges: what reached the other is equal on
    /// both sides by then. Host-side, as ``copyItems(into:where:)``: entitlements, lock state and the seam do not apply.
    /// - Parameters:
    ///   - base: the state of the last sync of these two keychains; nil for their first sync (a union).
    ///   - passwordsOnly: only generic and internet passwords travel (a device before iOS 14).
    ///   - digest: a keyed digest of bytes, for the state (never an unkeyed hash of a secret).
    /// - Throws: either store's open error, or the SQLite error that rolled one keychain's changes back.
    public func synchronize(
        with other: Keychain, since base: KeychainSyncState?, passwordsOnly: Bool, digest: (Data) -> String
    ) throws -> KeychainSyncOutcome {
        if let openError { throw openError }
        if let openError = other.openError { throw openError }
        guard let store, let otherStore = other.store else { return KeychainSyncOutcome() }
        let (mine, myBlocked) = try lockedStore { try Self.syncRows(store, passwordsOnly: passwordsOnly, digest: digest) }
        let (theirs, theirBlocked) = try other.lockedStore {
            try Self.syncRows(otherStore, passwordsOnly: passwordsOnly, digest: digest)
        }
        let known = base?.items ?? [:]
        var outcome = KeychainSyncOutcome()
        var state: [String: String] = [:]
        // What each side receives: an item to put (add or replace), or the identity to delete.
        var toHere: [(id: String, put: SyncRow?)] = []
        var toThere: [(id: String, put: SyncRow?)] = []
        for id in Set(mine.keys).union(theirs.keys).union(known.keys).sorted() {
            let here = mine[id]
            let there = theirs[id]
            let last = known[id]
            switch (here, there) {
            case (nil, nil):
                continue
            case (let here?, let there?):
                if here.content == there.content {
                    state[id] = here.content
                    continue
                }
                let hereChanged = here.content != last
                let thereChanged = there.content != last
                var winner = here
                if hereChanged && thereChanged {
                    outcome.conflicts += 1
                    winner = there.modified > here.modified ? there : here
                } else if thereChanged {
                    winner = there
                }
                if winner.content == here.content { toThere.append((id, winner)) } else { toHere.append((id, winner)) }
                state[id] = winner.content
            case (let here?, nil):
                // Synced before and gone there: a delete there, unless this side changed it since.
                if let last, here.content == last {
                    toHere.append((id, nil))
                } else {
                    toThere.append((id, here))
                    state[id] = here.content
                }
            case (nil, let there?):
                if let last, there.content == last {
                    toThere.append((id, nil))
                } else {
                    toHere.append((id, there))
                    state[id] = there.content
                }
            }
        }
        // An incoming item whose key a local item that does not travel holds stays out.
        func admitted(_ changes: [(id: String, put: SyncRow?)], blocked: Set<String>) -> [(id: String, put: SyncRow?)] {
            changes.filter { change in
                guard change.put != nil, blocked.contains(change.id) else { return true }
                outcome.keptLocal += 1
                state[change.id] = nil
                return false
            }
        }
        toThere = admitted(toThere, blocked: theirBlocked)
        toHere = admitted(toHere, blocked: myBlocked)
        outcome.there = try other.lockedStore { try Self.apply(toThere, to: otherStore, existing: theirs) }
        outcome.here = try lockedStore { try Self.apply(toHere, to: store, existing: mine) }
        outcome.synced = state.count
        outcome.state = KeychainSyncState(items: state)
        return outcome
    }

    /// Every item of `store` that travels, by identity digest, and the identities of those that do not.
    private static func syncRows(
        _ store: KeychainStore, passwordsOnly: Bool, digest: (Data) -> String
    ) throws -> ([String: SyncRow], Set<String>) {
        var rows: [String: SyncRow] = [:]
        var blocked: Set<String> = []
        for itemClass in ItemClass.stored {
            let layout = TableLayout.of(itemClass)
            for row in try store.select(from: itemClass, RowFilter(), limit: nil) {
                let identity = digest(Self.canonical(itemClass, row, columns: itemClass.primaryKey.map(\.key), asBytes: true))
                guard travelsBySync(row, itemClass: itemClass, passwordsOnly: passwordsOnly) else {
                    blocked.insert(identity)
                    continue
                }
                var modified = 0.0
                if case .real(let value)? = row["mdat"] { modified = value }
                rows[identity] = SyncRow(
                    itemClass: itemClass, row: row, content: digest(Self.canonical(itemClass, row, columns: layout.columns)),
                    modified: modified)
            }
        }
        return (rows, blocked)
    }

    /// The columns' values as bytes, each with its name and type (strings as their bytes in a key:
    /// row 44 counts "a" and `Data("a".utf8)` as one).
    private static func canonical(_ itemClass: ItemClass, _ row: StoredRow, columns: [String], asBytes: Bool = false) -> Data {
        var bytes = Data(itemClass.table.utf8)
        for column in columns {
            bytes.append(0)
            bytes.append(contentsOf: column.utf8)
            var value = row[column] ?? .null
            if asBytes { value = value.asBytes }
            switch value {
            case .null: bytes.append(contentsOf: [0x3D, 0x6E])
            case .integer(let number): bytes.append(contentsOf: Array("=i\(number)".utf8))
            case .real(let number): bytes.append(contentsOf: Array("=r\(number.bitPattern)".utf8))
            case .text(let text):
                bytes.append(contentsOf: Array("=t\(text.utf8.count):".utf8))
                bytes.append(contentsOf: text.utf8)
            case .blob(let data):
                bytes.append(contentsOf: Array("=b\(data.count):".utf8))
                bytes.append(data)
            }
        }
        return bytes
    }

    /// Puts and deletes `changes` in one transaction of `store`; `existing` holds its rows by identity.
    private static func apply(
        _ changes: [(id: String, put: SyncRow?)], to store: KeychainStore, existing: [String: SyncRow]
    ) throws -> KeychainSyncOutcome.Changes {
        var counts = KeychainSyncOutcome.Changes()
        guard !changes.isEmpty else { return counts }
        try store.database.transaction(immediate: true) {
            for change in changes {
                if let old = existing[change.id] { try store.delete(old.itemClass, rowid: old.row.rowid) }
                guard let put = change.put else {
                    counts.deleted += 1
                    continue
                }
                var copy = NewRow(put.itemClass)
                for (index, column) in copy.layout.columns.enumerated() {
                    if let value = put.row[column] { copy[index] = value }
                }
                _ = try store.insert(copy)
                if existing[change.id] == nil { counts.added += 1 } else { counts.updated += 1 }
            }
        }
        return counts
    }
}
