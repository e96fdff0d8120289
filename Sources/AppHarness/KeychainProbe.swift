import Foundation
import SimRuntime
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// The automation's own keychain calls: exact-item reads, writes and deletes by class, service and
/// account, each answering its OSStatus so that a status file can stand it beside the operation.
public enum KeychainProbe {
    /// Reads the generic password at `service`/`account`.
    /// - Returns: the status of `SecItemCopyMatching` and the data when it succeeded.
    public static func read(service: String, account: String) -> (status: OSStatus, data: Data?) {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecAttrAccount: account,
            kSecReturnData: true,
            kSecMatchLimit: kSecMatchLimitOne,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        return (status, status == errSecSuccess ? found as? Data : nil)
    }

    /// Adds the item, or on `errSecDuplicateItem` updates its data (and accessibility when given).
    /// - Parameter accessible: the `kSecAttrAccessible` value as a `String`; nil leaves the
    ///   default class on add and the current class on update.
    /// - Returns: the operation that decided the outcome and its status.
    public static func addOrUpdate(
        _ data: Data, service: String, account: String,
        accessible: String? = nil
    ) -> (operation: String, status: OSStatus) {
        var item: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecAttrAccount: account,
            kSecValueData: data,
        ]
        if let accessible { item[kSecAttrAccessible] = accessible as CFString }
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecDuplicateItem else { return ("SecItemAdd", added) }
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecAttrAccount: account,
        ]
        var changes: [CFString: Any] = [kSecValueData: data]
        if let accessible { changes[kSecAttrAccessible] = accessible as CFString }
        return ("SecItemUpdate", SecItemUpdate(query as CFDictionary, changes as CFDictionary))
    }

    /// Deletes exactly the generic password at `service`/`account`, never a broader match.
    public static func deleteExact(service: String, account: String) -> OSStatus {
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecAttrAccount: account,
        ]
        return SecItemDelete(query as CFDictionary)
    }

    /// The result word for a read: `found` or `mismatch` when it succeeded (compared with
    /// `expected`), `missing`, `locked` (errSecInteractionNotAllowed, never read as missing) or `failed`.
    public static func result(of status: OSStatus, matches: Bool) -> ItemResult {
        switch status {
        case errSecSuccess: matches ? .found : .mismatch
        case errSecItemNotFound: .missing
        case errSecInteractionNotAllowed: .locked
        default: .failed
        }
    }
}
