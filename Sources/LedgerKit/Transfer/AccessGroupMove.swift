import AppHarness
import Foundation
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Moves every generic password of some access groups into another, one item at a time: read it
/// (attributes and data), write a copy into the target group (add-or-update with the same service,
/// account and accessibility), read the copy back and compare its bytes, and only then delete the
/// original by its exact primary key. The bytes are moved as they are, never interpreted.
///
/// A crash or a failure at any point leaves every item in its source, its target, or both (the same
/// bytes), never neither; running the move again finishes it. Synchronizable items are left where
/// they are (the Ledger builds keep none).
public struct AccessGroupMove: Sendable {
    /// The groups to empty, in order.
    public let sources: [String]
    /// The group that receives every item.
    public let target: String
    let journal: any LaunchJournal

    /// A move from `sources` into `target` that reports each copy and delete to `journal`.
    public init(from sources: [String], to target: String, journal: any LaunchJournal) {
        self.sources = sources
        self.target = target
        self.journal = journal
    }

    /// The bridge release's move: the old team's groups into the app group.
    public static func bridge(journal: any LaunchJournal) -> AccessGroupMove {
        AccessGroupMove(from: LedgerTransfer.oldTeamGroups, to: LedgerTransfer.bridgeGroup, journal: journal)
    }

    /// The new team's import: the app group into its own group.
    public static func importing(journal: any LaunchJournal) -> AccessGroupMove {
        AccessGroupMove(from: [LedgerTransfer.bridgeGroup], to: LedgerTransfer.newTeamGroup, journal: journal)
    }

    /// Moves every item; returns how many moved.
    /// - Throws: the first failure (a locked read, a failed write, a copy that reads back
    ///   differently, a failed delete); the items not yet moved stay in their source.
    @discardableResult
    public func run() throws(MigrationError) -> Int {
        var moved = 0
        for source in sources where source != target {
            for item in try items(in: source) {
                try move(item, from: source)
                moved += 1
            }
        }
        return moved
    }

    private func items(in group: String) throws(MigrationError) -> [[String: Any]] {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: group,
            kSecMatchLimit: kSecMatchLimitAll, kSecReturnAttributes: true, kSecReturnData: true,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess, let items = found as? [[String: Any]] else {
            journal.recordError(group, .keychain, "SecItemCopyMatching", status)
            throw .keychain(KeychainFailure(status, operation: "SecItemCopyMatching"))
        }
        return items.sorted { Self.name(of: $0) < Self.name(of: $1) }
    }

    private static func name(of item: [String: Any]) -> String {
        "\(item[kSecAttrService as String] as? String ?? "")/\(item[kSecAttrAccount as String] as? String ?? "")"
    }

    private func primaryKey(_ item: [String: Any], group: String) -> [CFString: Any] {
        var key: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccessGroup: group]
        for attribute in [kSecAttrService, kSecAttrAccount] {
            if let value = item[attribute as String] { key[attribute] = value }
        }
        return key
    }

    private func move(_ item: [String: Any], from source: String) throws(MigrationError) {
        let account = item[kSecAttrAccount as String] as? String ?? ""
        let data = item[kSecValueData as String] as? Data ?? Data()
        let copy = primaryKey(item, group: target)
        var add = copy
        add[kSecValueData] = data
        var changes: [CFString: Any] = [kSecValueData: data]
        if let accessible = item[kSecAttrAccessible as String] as? String {
            add[kSecAttrAccessible] = accessible as CFString
            changes[kSecAttrAccessible] = accessible as CFString
        }
        var operation = "SecItemAdd"
        var status = SecItemAdd(add as CFDictionary, nil)
        if status == errSecDuplicateItem {
            operation = "SecItemUpdate"
            status = SecItemUpdate(copy as CFDictionary, changes as CFDictionary)
        }
        guard status == errSecSuccess else { throw fail(account, operation, status) }
        var readBack = copy
        readBack[kSecReturnData] = true
        readBack[kSecMatchLimit] = kSecMatchLimitOne
        var found: CFTypeRef?
        let read = SecItemCopyMatching(readBack as CFDictionary, &found)
        guard read == errSecSuccess else { throw fail(account, "SecItemCopyMatching", read) }
        guard found as? Data == data else {
            journal.record(account, .keychain, "SecItemCopyMatching", read, .mismatch)
            throw .readBackMismatch(account)
        }
        journal.record(account, .keychain, operation, status, .written)
        let deleted = SecItemDelete(primaryKey(item, group: source) as CFDictionary)
        guard deleted == errSecSuccess || deleted == errSecItemNotFound else {
            throw fail(account, "SecItemDelete", deleted)
        }
        journal.record(account, .keychain, "SecItemDelete", deleted, .removed)
    }

    private func fail(_ account: String, _ operation: String, _ status: OSStatus) -> MigrationError {
        journal.record(account, .keychain, operation, status, .failed)
        return .keychain(KeychainFailure(status, operation: operation))
    }
}

/// A schema step that is an ``AccessGroupMove``.
public struct MoveAccessGroupStep: MigrationStep {
    public let from: Int
    /// The move the step makes.
    public let move: AccessGroupMove

    /// The step from version `from` to `from + 1` that makes `move`.
    public init(from: Int, move: AccessGroupMove) {
        self.from = from
        self.move = move
    }

    public func run() async throws(MigrationError) { try move.run() }
}

/// A schema step with nothing to do in this build: its work belongs to another release (the new
/// team's build cannot run the bridge, whose source groups it is not granted).
public struct NothingToDoStep: MigrationStep {
    public let from: Int

    /// A step from `from` to `from + 1` that changes nothing.
    public init(from: Int) { self.from = from }

    public func run() async throws(MigrationError) {}
}
