import AppHarness
import Foundation
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Mutant `biometry-bound-tokens`: at the end of every launch the release puts its tokens and
/// session behind Face ID / Touch ID ("a stolen phone cannot reuse the session"): each item of
/// its service without access control gets `kSecAttrAccessControl` with `.biometryCurrentSet`,
/// keeping its class. The foreground app still reads them (the user passes the prompt), but a
/// background launch cannot (errSecInteractionNotAllowed), nor any launch while the device is
/// locked, where the old release's items were readable after first unlock; a new fingerprint
/// invalidates them (keeps-availability, docs/simsecurity.md rows 51 and 53). Items that already
/// carry access control are left alone, so a second launch changes nothing.
public enum BiometryBoundTokens {
    /// The accounts it binds.
    public static let accounts = ["authToken", "refreshToken", LedgerNames.sessionAccount]

    public static func bindToBiometry(_ launch: HarnessLaunch) {
        guard launch.environment.protectedData.isAvailable else { return }
        for account in accounts {
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: LedgerNames.service, kSecAttrAccount: account,
                kSecReturnAttributes: true,
            ]
            var found: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess,
                let attributes = found as? [String: Any],
                let accessible = attributes[kSecAttrAccessible as String] as? String
            else { continue }
            let existing = attributes[kSecAttrAccessControl as String] as? SecAccessControl
            if let existing, !existing.flags.isEmpty { continue }
            guard
                let control = SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault, accessible as CFString, .biometryCurrentSet, nil)
            else { continue }
            let key: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: LedgerNames.service, kSecAttrAccount: account,
            ]
            _ = SecItemUpdate(key as CFDictionary, [kSecAttrAccessControl: control] as CFDictionary)
        }
    }
}
