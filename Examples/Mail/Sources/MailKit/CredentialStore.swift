import Foundation

import Security

/// Mail 2.0's keychain: one generic password per account, readable after first unlock (as the
/// archive it replaces was), added or updated by its primary key.
public enum CredentialStore {
    public static let service = "com.example.mail"

    /// `synchronizable`: the item travels to the user's other devices through iCloud Keychain (3.2 on, the IMAP password).
    public static func save(_ secret: String, account: String, synchronizable: Bool = false) -> OSStatus {
        let key = genericKey(account: account, synchronizable: synchronizable)
        var item = key
        item[kSecValueData] = Data(secret.utf8)
        item[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecDuplicateItem else { return added }
        return SecItemUpdate(key as CFDictionary, [kSecValueData: Data(secret.utf8)] as CFDictionary)
    }

    /// `accessible`: a protection class the query also names (the known-bad 3.0 beta's inbox adds
    /// `kSecAttrAccessibleWhenUnlocked`, which matches no item saved after first unlock).
    public static func read(account: String, accessible: CFString? = nil, synchronizable: Bool = false) -> (OSStatus, String?) {
        var query = genericKey(account: account, synchronizable: synchronizable)
        query[kSecReturnData] = true
        query[kSecMatchLimit] = kSecMatchLimitOne
        if let accessible { query[kSecAttrAccessible] = accessible }
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, (found as? Data).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Mail 4.0's IMAP account: an internet password for the server, its port and protocol, as
    /// the account's login query names them. `withPort`: false for the known-bad 4.0 beta, whose
    /// rename writes the item without port and protocol (the login query then never finds it).
    public static func imapKey(withPort: Bool = true, synchronizable: Bool = false) -> [CFString: Any] {
        var key: [CFString: Any] = [
            kSecClass: kSecClassInternetPassword, kSecAttrServer: "imap.mail.example", kSecAttrAccount: "imap",
        ]
        if synchronizable { key[kSecAttrSynchronizable] = true }
        if withPort {
            key[kSecAttrPort] = 993
            key[kSecAttrProtocol] = kSecAttrProtocolIMAPS
        }
        return key
    }

    /// Adds the internet password `key` (after first unlock, as the generic one it replaces).
    public static func add(_ secret: Data, as key: [CFString: Any]) -> OSStatus {
        var item = key
        item[kSecValueData] = secret
        item[kSecAttrAccessible] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(item as CFDictionary, nil)
    }

    /// Reads the item `key` names (any class).
    public static func read(_ key: [CFString: Any]) -> (OSStatus, Data?) {
        var query = key
        query[kSecReturnData] = true
        query[kSecMatchLimit] = kSecMatchLimitOne
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, found as? Data)
    }

    /// The generic password of `account` (2.0 and 3.0's), for the key a rename reads and deletes.
    public static func genericKey(account: String, synchronizable: Bool = false) -> [CFString: Any] {
        var key: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account]
        if synchronizable { key[kSecAttrSynchronizable] = true }
        return key
    }

    /// After a reinstall: the old install's items of every class, synchronizable or not. With
    /// `sparingSynchronizable` (3.2 on) only the local ones: on a fresh install a synchronizable item
    /// came from the user's other device, and deleting it would delete it there too.
    public static func sweep(sparingSynchronizable: Bool = false) -> OSStatus {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            var query: [CFString: Any] = [kSecClass: itemClass]
            if !sparingSynchronizable { query[kSecAttrSynchronizable] = kSecAttrSynchronizableAny }
            let status = SecItemDelete(query as CFDictionary)
            if status != errSecSuccess && status != errSecItemNotFound { return status }
        }
        return errSecSuccess
    }
}
