import Foundation

import Security

/// Mail 2.0's keychain: one generic password per account, readable after first unlock (as the
/// archive it replaces was), added or updated by its primary key.
public enum CredentialStore {
    public static let service = "com.example.mail"

    public static func save(_ secret: String, account: String) -> OSStatus {
        let key: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account]
        var item = key
        item[kSecValueData] = Data(secret.utf8)
        item[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecDuplicateItem else { return added }
        return SecItemUpdate(key as CFDictionary, [kSecValueData: Data(secret.utf8)] as CFDictionary)
    }

    /// `accessible`: a protection class the query also names (the known-bad 3.0 beta's inbox adds
    /// `kSecAttrAccessibleWhenUnlocked`, which matches no item saved after first unlock).
    public static func read(account: String, accessible: CFString? = nil) -> (OSStatus, String?) {
        var query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account,
            kSecReturnData: true, kSecMatchLimit: kSecMatchLimitOne,
        ]
        if let accessible { query[kSecAttrAccessible] = accessible }
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, (found as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    /// After a reinstall: the old install's items of every class, synchronizable or not.
    public static func sweep() -> OSStatus {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            let status = SecItemDelete([kSecClass: itemClass, kSecAttrSynchronizable: kSecAttrSynchronizableAny] as CFDictionary)
            if status != errSecSuccess && status != errSecItemNotFound { return status }
        }
        return errSecSuccess
    }
}
