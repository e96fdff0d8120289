// A keychain wrapper written exactly as iOS apps write it. Only the import differs from the
// iOS original; this file is compiled in Swift 6 mode here and in Swift 5 mode by the
// SimSecurityCompatSwift5Tests target (through a symbolic link to this same file).
import Foundation
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

enum VaultError: Error, Equatable {
    case lockedTryLater
    case unexpected(OSStatus)
}

final class TokenKeychain {
    private let service: String
    private let accessGroup: String?

    init(service: String, accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    private func baseQuery(account: String) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup = accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        return query
    }

    /// Add, or update when the item already exists.
    func save(_ token: String, account: String) throws {
        let data = Data(token.utf8)
        var query = baseQuery(account: account)
        query[kSecValueData as String] = data
        query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        var status = SecItemAdd(query as CFDictionary, nil)
        if status == errSecDuplicateItem {
            let attributes: [String: Any] = [kSecValueData as String: data]
            status = SecItemUpdate(baseQuery(account: account) as CFDictionary, attributes as CFDictionary)
        }
        guard status == errSecSuccess else { throw VaultError.unexpected(status) }
    }

    /// Reads a token; nil when there is none; the lock error is not "missing".
    func readToken(account: String) throws -> String? {
        var query = baseQuery(account: account)
        query[kSecReturnData as String] = kCFBooleanTrue
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var out: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &out)
        switch status {
        case errSecSuccess:
            guard let data = out as? Data else { return nil }
            return String(data: data, encoding: .utf8)
        case errSecItemNotFound: return nil
        case errSecInteractionNotAllowed: throw VaultError.lockedTryLater
        default: throw VaultError.unexpected(status)
        }
    }

    func attributes(account: String) -> [String: Any]? {
        var query = baseQuery(account: account)
        query[kSecReturnAttributes as String] = true
        var out: AnyObject?
        guard SecItemCopyMatching(query as CFDictionary, &out) == noErr else { return nil }
        return out as? [String: Any]
    }

    func allAccounts() -> [String] {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecMatchLimit: kSecMatchLimitAll,
            kSecReturnAttributes: kCFBooleanTrue!,
            kSecAttrSynchronizable: kSecAttrSynchronizableAny,
            kSecUseDataProtectionKeychain: true,
        ]
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
            let items = result as? [[String: Any]]
        else { return [] }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted()
    }

    @discardableResult
    func delete(account: String) -> OSStatus {
        let status = SecItemDelete(baseQuery(account: account) as CFDictionary)
        return status == errSecItemNotFound ? errSecSuccess : status
    }

    func describe(_ status: OSStatus) -> String {
        (SecCopyErrorMessageString(status, nil) as String?) ?? "OSStatus \(status)"
    }

    static func biometricControl() -> SecAccessControl? {
        var error: Unmanaged<CFError>?
        return SecAccessControlCreateWithFlags(
            kCFAllocatorDefault, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            .userPresence, &error)
    }
}
