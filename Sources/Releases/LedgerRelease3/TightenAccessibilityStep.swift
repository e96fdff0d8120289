import AppHarness
import Foundation
import LedgerRelease2
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

/// Step 2 -> 3: every generic password the app can reach is re-saved with
/// `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` through add-or-update: the add answers
/// `errSecDuplicateItem` and the update carries the new `kSecAttrAccessible`. Items already in that
/// class are left alone, so the step is idempotent. The search holds no `kSecAttrAccessible` (it
/// would act as a filter) and no synchronizable items (ThisDeviceOnly cannot sync).
public struct TightenAccessibilityStep: MigrationStep {
    public let from = 2
    let journal: any LaunchJournal

    public init(journal: any LaunchJournal) { self.journal = journal }

    public func run() async throws(MigrationError) {
        let target = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly as String
        let everything: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecMatchLimit: kSecMatchLimitAll,
            kSecReturnAttributes: true,
            kSecReturnData: true,
        ]
        var found: CFTypeRef?
        let status = SecItemCopyMatching(everything as CFDictionary, &found)
        if status == errSecItemNotFound { return }
        guard status == errSecSuccess, let items = found as? [[String: Any]] else {
            journal.recordError("genp", .keychain, "SecItemCopyMatching", status)
            throw .keychain(KeychainFailure(status, operation: "SecItemCopyMatching"))
        }
        let sorted = items.sorted { name(of: $0) < name(of: $1) }
        for item in sorted where item[kSecAttrAccessible as String] as? String != target {
            try tighten(item, to: target)
        }
    }

    private func name(of item: [String: Any]) -> String {
        "\(item[kSecAttrService as String] as? String ?? "")/\(item[kSecAttrAccount as String] as? String ?? "")"
    }

    private func tighten(_ item: [String: Any], to target: String) throws(MigrationError) {
        let account = item[kSecAttrAccount as String] as? String ?? ""
        var primaryKey: [CFString: Any] = [kSecClass: kSecClassGenericPassword]
        for key in [kSecAttrService, kSecAttrAccount, kSecAttrAccessGroup] {
            if let value = item[key as String] { primaryKey[key] = value }
        }
        let data = item[kSecValueData as String] as? Data ?? Data()
        var add = primaryKey
        add[kSecValueData] = data
        add[kSecAttrAccessible] = target as CFString
        var operation = "SecItemAdd"
        var status = SecItemAdd(add as CFDictionary, nil)
        if status == errSecDuplicateItem {
            operation = "SecItemUpdate"
            let changes: [CFString: Any] = [kSecValueData: data, kSecAttrAccessible: target as CFString]
            status = SecItemUpdate(primaryKey as CFDictionary, changes as CFDictionary)
        }
        guard status == errSecSuccess else {
            journal.record(account, .keychain, operation, status, .failed)
            throw .keychain(KeychainFailure(status, operation: operation))
        }
        journal.record(account, .keychain, operation, status, .written)
    }
}
