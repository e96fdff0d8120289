import Foundation
import LedgerRelease1
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// The keychain as the migration parts see it (seed 000's `MigrationKeychainProtocol`), with each
/// failure keeping its OSStatus and the call that returned it.
public protocol MigrationKeychainProtocol: Actor {
    /// Add-or-update: `SecItemAdd`, and on `errSecDuplicateItem` a `SecItemUpdate` with the new
    /// data and accessibility. Returns the call that stored it (`SecItemAdd` or `SecItemUpdate`).
    @discardableResult
    func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String
    /// The item's data, nil when there is none; throws for any other status (a locked read is
    /// `errSecInteractionNotAllowed`, never "missing").
    func read(account: String) throws(KeychainFailure) -> Data?
    /// Deletes the item; a missing item is not an error.
    func delete(account: String) throws(KeychainFailure)
}

/// A keychain call that did not succeed.
public struct KeychainFailure: Error, Equatable, CustomStringConvertible {
    public let status: OSStatus
    /// The call that answered it (`SecItemAdd`, `SecItemCopyMatching`, ...).
    public let operation: String

    public init(_ status: OSStatus, operation: String) {
        self.status = status
        self.operation = operation
    }

    public var description: String { "\(operation) \(status)" }
}

/// The app's keychain through the `SecItem*` functions, every item under one service.
public actor LiveMigrationKeychain: MigrationKeychainProtocol {
    private let items: ServiceItems

    public init(service: String = LedgerNames.service) { items = ServiceItems(service: service) }

    @discardableResult
    public func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        try items.save(data, account: account, accessibility: accessibility)
    }

    public func read(account: String) throws(KeychainFailure) -> Data? { try items.read(account: account) }

    public func delete(account: String) throws(KeychainFailure) { try items.delete(account: account) }
}

/// The `SecItem*` calls behind the migration keychains: one service's generic passwords, in one
/// access group or (with none) in every group the app holds, where an add lands in the first.
public struct ServiceItems: Sendable {
    /// The items' `kSecAttrService`.
    public let service: String
    /// The one access group the items live in; nil: every group the app holds.
    public var accessGroup: String? = nil

    /// The generic passwords of `service`, in `accessGroup` when one is given.
    public init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func primaryKey(_ account: String) -> [CFString: Any] {
        var key: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account]
        if let accessGroup { key[kSecAttrAccessGroup] = accessGroup }
        return key
    }

    /// Add-or-update; returns the call that stored it.
    public func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        var item = primaryKey(account)
        item[kSecValueData] = data
        item[kSecAttrAccessible] = accessibility as CFString
        let added = SecItemAdd(item as CFDictionary, nil)
        if added == errSecSuccess { return "SecItemAdd" }
        guard added == errSecDuplicateItem else { throw KeychainFailure(added, operation: "SecItemAdd") }
        // Search by primary key only: kSecAttrAccessible in a query is a filter (the phantom mismatch).
        let changes: [CFString: Any] = [kSecValueData: data, kSecAttrAccessible: accessibility as CFString]
        let updated = SecItemUpdate(primaryKey(account) as CFDictionary, changes as CFDictionary)
        guard updated == errSecSuccess else { throw KeychainFailure(updated, operation: "SecItemUpdate") }
        return "SecItemUpdate"
    }

    /// The item's data, nil when there is none; throws for any other status.
    public func read(account: String) throws(KeychainFailure) -> Data? {
        var query = primaryKey(account)
        query[kSecReturnData] = true
        query[kSecMatchLimit] = kSecMatchLimitOne
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        switch status {
        case errSecSuccess: return found as? Data
        case errSecItemNotFound: return nil
        default: throw KeychainFailure(status, operation: "SecItemCopyMatching")
        }
    }

    /// Deletes the item by its primary key; a missing item is not an error.
    public func delete(account: String) throws(KeychainFailure) {
        let status = SecItemDelete(primaryKey(account) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw KeychainFailure(status, operation: "SecItemDelete")
        }
    }
}
