import Foundation
import SimRuntime
import Testing
@testable import SimSecurity

@Suite("Security and Core Foundation functions beyond SecItem, as wrappers call them")
struct SecurityFunctionTests {
    @Test("CFErrorGetDomain, CFErrorGetCode and CFErrorCopyUserInfo read an error as Core Foundation does")
    func cfError() {
        var unmanaged: Unmanaged<CFError>?
        #expect(SecAccessControlCreateWithFlags(nil, "no such class" as CFString, [], &unmanaged) == nil)
        let error = unmanaged!.takeRetainedValue()
        #expect(CFErrorGetDomain(error) as String == kCFErrorDomainOSStatus as String)
        #expect(CFErrorGetCode(error) == Int(errSecParam))
        let described = NSError(domain: "d", code: 7, userInfo: [NSLocalizedDescriptionKey: "why"])
        #expect((CFErrorCopyUserInfo(described) as? [String: Any])?[NSLocalizedDescriptionKey] as? String == "why")
        let flags: CFOptionFlags = 3
        #expect(flags == 3 as UInt)
    }

    @Test("SecRandomCopyBytes fills the whole buffer from the system's source; other generators are refused")
    func random() {
        var first = [UInt8](repeating: 0, count: 37)
        var second = [UInt8](repeating: 0, count: 37)
        #expect(SecRandomCopyBytes(kSecRandomDefault, first.count, &first) == errSecSuccess)
        #expect(SecRandomCopyBytes(kSecRandomDefault, second.count, &second) == errSecSuccess)
        #expect(first != second)  // 296 random bits: equal only if the source is broken
        #expect(first.suffix(8) != [UInt8](repeating: 0, count: 8))  // the tail past the last full word is filled
        #expect(SecRandomCopyBytes(kSecRandomDefault, -1, &first) == errSecParam)
        var byte: UInt8 = 0
        #expect(SecRandomCopyBytes(OpaquePointer(bitPattern: 8), 1, &byte) == errSecParam)
    }

    @Test("SecAccessControl is Hashable: equal class and flags are equal, so it goes into [String: AnyHashable]")
    func accessControlHashable() {
        let one = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)!
        let same = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)!
        let other = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, .userPresence, nil)!
        #expect(one == same && one.hashValue == same.hashValue)
        #expect(one != other)
        let query: [String: AnyHashable] = [kSecAttrAccessControl as String: one]
        #expect(query[kSecAttrAccessControl as String] == AnyHashable(same))
    }

    @Test("a result's attributes as [AnyHashable: Any] are found by the constants themselves, as on iOS")
    func attributesByConstant() {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        #expect(keychain.add(password("b", [kSecValueData: Data("w"), kSecAttrService: Data("s".utf8)])) == errSecSuccess)
        let all =
            keychain.copy([
                kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll, kSecReturnAttributes: true,
            ]).result as? [[AnyHashable: Any]]
        // On iOS an NSString in an AnyHashable is its String: kSecAttrAccount finds the "acct" key.
        #expect(Set(all?.compactMap { $0[kSecAttrAccount] as? String } ?? []) == ["a", "b"])
        #expect(all?.compactMap { $0[kSecAttrService] as? Data } == [Data("s".utf8)])
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
        #expect(AnyHashable(NSMutableString(string: "acct")).hashValue == AnyHashable("acct").hashValue)
        let byConstant: [AnyHashable: Any] = [kSecAttrAccount: "a"]
        #expect(byConstant["acct"] as? String == "a")
    }

    @Test("kCFBundleIdentifierKey is Info.plist's key of the bundle identifier, as keychain wrappers read it")
    func bundleIdentifierKey() {
        #expect(kCFBundleIdentifierKey as String == "CFBundleIdentifier")
        let info: [String: Any] = ["CFBundleIdentifier": "com.example.app"]
        #expect(info[kCFBundleIdentifierKey as String] as? String == "com.example.app")
    }

    @Test("kSecUseNoAuthenticationUI and the other use keys are accepted and show no UI")
    func noAuthenticationUI() {
        let keychain = makeKeychain()
        #expect(kSecUseNoAuthenticationUI as String == "u_NoAuthUI")
        #expect(keychain.add(password("a", [kSecValueData: Data("v"), kSecUseNoAuthenticationUI: true])) == errSecSuccess)
        #expect(keychain.secret("a", [kSecUseNoAuthenticationUI: true, kSecUseItemList: NSArray()]) == Data("v"))
    }

    @Test("certificate search keys are ignored by a search and refused by an update or delete")
    func matchKeys() {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        #expect(keychain.secret("a", [kSecMatchCaseInsensitive: true]) == Data("v"))
        #expect(keychain.delete(password("a", [kSecMatchCaseInsensitive: true])) == errSecParam)
    }

    @Test("isRuntimeAtLeast answers for the simulated device, as ProcessInfo does on it")
    func runtime() {
        let keychain = makeKeychain(runtime: "iOS 11.3")
        #expect(keychain.isRuntimeAtLeast(OperatingSystemVersion(majorVersion: 11, minorVersion: 3, patchVersion: 0)))
        #expect(!keychain.isRuntimeAtLeast(OperatingSystemVersion(majorVersion: 12, minorVersion: 0, patchVersion: 0)))
    }
}
