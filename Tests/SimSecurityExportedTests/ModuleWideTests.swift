// This file imports only Foundation and Testing, as an iOS keychain test would: SecItemAdd and
// the kSec constants come from SecurityImport.swift's `@_exported import Security`.
import Foundation
import Testing

@Suite("One @_exported import Security makes the Security API visible module-wide")
struct ModuleWideTests {
    @Test("a file without `import Security` adds, reads and deletes an item")
    func keychainWithoutImport() {
        let service = "exported-\(UUID().uuidString)"
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: "a",
        ]
        var add = query
        add[kSecValueData as String] = Data("v".utf8)
        #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
        var read = query
        read[kSecReturnData as String] = kCFBooleanTrue
        var result: CFTypeRef?
        #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess)
        #expect(result as? Data == Data("v".utf8))
        #expect(SecItemDelete(query as CFDictionary) == errSecSuccess)
    }
}
