import Foundation
#if canImport(Security)
import Security
#else
import SimSecurity
#endif

/// The app's keychain for a build whose items live in one named access group rather than its
/// first one: every write names the group (an add without `kSecAttrAccessGroup` would land in the
/// first group, beside a moved copy, and leave two items under one account), reads look in the
/// group first and then in every group the app holds, deletes reach every group.
public actor GroupMigrationKeychain: MigrationKeychainProtocol {
    private let service: String
    private let accessGroup: String

    /// The items of `service` kept in `accessGroup`.
    public init(service: String = LedgerNames.service, accessGroup: String) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func primaryKey(_ account: String, group: String?) -> [CFString: Any] {
        var key: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account]
        if let group { key[kSecAttrAccessGroup] = group }
        return key
    }

    @discardableResult
    public func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        var item = primaryKey(account, group: accessGroup)
        item[kSecValueData] = data
        item[kSecAttrAccessible] = accessibility as CFString
        let added = SecItemAdd(item as CFDictionary, nil)
        if added == errSecSuccess { return "SecItemAdd" }
        guard added == errSecDuplicateItem else { throw KeychainFailure(added, operation: "SecItemAdd") }
        let changes: [CFString: Any] = [kSecValueData: data, kSecAttrAccessible: accessibility as CFString]
        let updated = SecItemUpdate(primaryKey(account, group: accessGroup) as CFDictionary, changes as CFDictionary)
        guard updated == errSecSuccess else { throw KeychainFailure(updated, operation: "SecItemUpdate") }
        return "SecItemUpdate"
    }

    public func read(account: String) throws(KeychainFailure) -> Data? {
        if let data = try read(account, group: accessGroup) { return data }
        return try read(account, group: nil)
    }

    private func read(_ account: String, group: String?) throws(KeychainFailure) -> Data? {
        var query = primaryKey(account, group: group)
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

    public func delete(account: String) throws(KeychainFailure) {
        let status = SecItemDelete(primaryKey(account, group: nil) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw KeychainFailure(status, operation: "SecItemDelete")
        }
    }
}
