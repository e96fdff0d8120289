// Exercises the iOS-style wrapper against SimSecurity with no set-up at all (the default
// in-memory store and test-host identity), then with a keychain chosen in-process.
import Foundation
import SimRuntime
import SimSecurity
import Testing

@Suite("An iOS-style keychain wrapper compiles and behaves against SimSecurity")
struct TokenKeychainTests {
    @Test("save, read back, update, list, delete with no set-up")
    func roundTrip() throws {
        // Each test binds its own keychain so tests can run in parallel; the default works too.
        try Keychain.withCurrent(Keychain(Keychain.Configuration())) {
            let vault = TokenKeychain(service: "com.example.ledger")
            #expect(try vault.readToken(account: "auth") == nil)
            try vault.save("first", account: "auth")
            #expect(try vault.readToken(account: "auth") == "first")
            try vault.save("second", account: "auth")
            #expect(try vault.readToken(account: "auth") == "second")
            try vault.save("r", account: "refresh")
            #expect(vault.allAccounts() == ["auth", "refresh"])
            #expect(vault.attributes(account: "auth")?[kSecAttrAccessible as String] as? String == "cku")
            #expect(vault.delete(account: "auth") == errSecSuccess)
            #expect(vault.delete(account: "auth") == errSecSuccess)
            #expect(try vault.readToken(account: "auth") == nil)
        }
    }

    @Test("the default keychain works without any configuration")
    func defaultKeychain() throws {
        let vault = TokenKeychain(service: "compat-default-\(UUID().uuidString)")
        try vault.save("v", account: "a")
        #expect(try vault.readToken(account: "a") == "v")
        vault.delete(account: "a")
    }

    @Test("a group the default test host does not hold answers errSecMissingEntitlement")
    func missingEntitlement() {
        Keychain.withCurrent(Keychain(Keychain.Configuration())) {
            let vault = TokenKeychain(service: "s", accessGroup: "ABCDE12345.com.example.shared")
            #expect(throws: VaultError.unexpected(errSecMissingEntitlement)) { try vault.save("v", account: "a") }
        }
    }

    @Test("a locked read is 'try later', never 'missing'")
    func lockedRead() throws {
        let keychain = Keychain(Keychain.Configuration())
        try Keychain.withCurrent(keychain) {
            let vault = TokenKeychain(service: "s")
            try vault.save("v", account: "a")
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrAccount: "w", kSecValueData: Data("x".utf8),
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)  // default class: WhenUnlocked
            keychain.setLockState(.locked)
            #expect(try vault.readToken(account: "a") == "v")  // AfterFirstUnlockThisDeviceOnly
            let whenUnlocked = TokenKeychain(service: "")
            #expect(throws: VaultError.lockedTryLater) { try whenUnlocked.readToken(account: "w") }
            keychain.setLockState(.beforeFirstUnlock)
            #expect(throws: VaultError.lockedTryLater) { try vault.readToken(account: "a") }
        }
    }

    @Test("error messages and access control objects")
    func messagesAndAccessControl() {
        let vault = TokenKeychain(service: "s")
        #expect(vault.describe(errSecDuplicateItem) == "The specified item already exists in the keychain.")
        #expect(vault.describe(errSecItemNotFound) == "The specified item could not be found in the keychain.")
        #expect(TokenKeychain.biometricControl()?.protection == "akpu")
    }
}
