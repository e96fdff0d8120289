import Foundation
import LedgerRelease1
import LedgerRelease2
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
    private let inGroup: ServiceItems
    private let anyGroup: ServiceItems

    /// The items of `service` kept in `accessGroup`.
    public init(service: String = LedgerNames.service, accessGroup: String) {
        inGroup = ServiceItems(service: service, accessGroup: accessGroup)
        anyGroup = ServiceItems(service: service)
    }

    @discardableResult
    public func save(_ data: Data, account: String, accessibility: String) throws(KeychainFailure) -> String {
        try inGroup.save(data, account: account, accessibility: accessibility)
    }

    public func read(account: String) throws(KeychainFailure) -> Data? {
        if let data = try inGroup.read(account: account) { return data }
        return try anyGroup.read(account: account)
    }

    public func delete(account: String) throws(KeychainFailure) { try anyGroup.delete(account: account) }
}
