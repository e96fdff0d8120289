import AppHarness
import Foundation
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Mutant `protection-widened`: at the end of every launch the release re-saves each generic
/// password it can reach that is in a `…ThisDeviceOnly` class with
/// `kSecAttrAccessibleAfterFirstUnlock`, "so a new phone restored from a backup keeps the user
/// signed in". Every lock state that could read an item still can (keeps-availability passes), but
/// the device-bound secrets now travel in backups to another phone: a cloned session
/// (keeps-protection). Items already outside a `ThisDeviceOnly` class are left alone, so a second
/// launch changes nothing.
public enum ProtectionWidening {
    public static func resaveWithoutThisDeviceOnly(_ launch: HarnessLaunch) {
        guard launch.environment.protectedData.isAvailable else { return }
        let everything: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll, kSecReturnAttributes: true,
        ]
        var found: CFTypeRef?
        guard SecItemCopyMatching(everything as CFDictionary, &found) == errSecSuccess, let items = found as? [[String: Any]]
        else { return }
        let travelling = kSecAttrAccessibleAfterFirstUnlock as String
        let deviceBound = [
            kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            kSecAttrAccessibleAlwaysThisDeviceOnly,
        ].map { $0 as String }
        for item in items where deviceBound.contains(item[kSecAttrAccessible as String] as? String ?? "") {
            var primaryKey: [CFString: Any] = [kSecClass: kSecClassGenericPassword]
            for key in [kSecAttrService, kSecAttrAccount, kSecAttrAccessGroup] {
                if let value = item[key as String] { primaryKey[key] = value }
            }
            _ = SecItemUpdate(primaryKey as CFDictionary, [kSecAttrAccessible: travelling] as CFDictionary)
        }
    }
}
