import Foundation
import SimRuntime
import Testing
import TestSupport
@testable import SimSecurity

@Suite("SecKey: keys made from their bytes, stored by reference and read back as references")
struct SecKeyTests {
    /// An EC P-256 private key's X9.63 bytes (04 || X || Y || K): 97 bytes.
    static let privateBytes = Data([0x04] + (1...96).map { UInt8($0) })
    static var keyAttributes: [CFString: Any] { attributes(type: "73", keyClass: "1") }

    /// Key attributes by their raw values: `kSecAttrKeyType` "73" (EC) or "42" (RSA), `kSecAttrKeyClass` "0", "1" or "2".
    static func attributes(type: String, keyClass: String?) -> [CFString: Any] {
        var attributes: [CFString: Any] = [kSecAttrKeyType: type]
        if let keyClass { attributes[kSecAttrKeyClass] = keyClass }
        return attributes
    }

    private func makeKey(_ bytes: Data = privateBytes, _ attributes: [CFString: Any] = keyAttributes) -> (SecKey?, OSStatus?) {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateWithData(bytes as CFData, attributes as CFDictionary, &error)
        return (key, error.map { OSStatus(CFErrorGetCode($0.takeRetainedValue())) })
    }

    @Test("an EC key's size comes from its bytes; its external representation is those bytes")
    func create() throws {
        let key = try #require(makeKey().0)
        #expect(key.sizeInBits == 256)
        #expect(SecKeyGetBlockSize(key) == 32)
        var error: Unmanaged<CFError>?
        #expect(SecKeyCopyExternalRepresentation(key, &error) as Data? == Self.privateBytes)
        let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
        #expect(attributes[kSecAttrKeyClass as String] as? String == "1")
        #expect(attributes[kSecAttrKeyType as String] as? String == "73")
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 256)
    }

    @Test(
        "bytes or attributes that name no key: nil and errSecParam",
        arguments: [
            ([0x04, 1, 2, 3], "73", "1"),  // no curve has this length
            ([0x05] + (1...96).map { UInt8($0) }, "73", "1"),  // not X9.63
            ([0x04] + (1...96).map { UInt8($0) }, "73", nil),  // no key class
            ([0x04] + (1...96).map { UInt8($0) }, "73", "2"),  // EC keys are not symmetric
            ([0x04] + (1...96).map { UInt8($0) }, "42", "1"),  // RSA that is not a DER sequence
        ] as [([UInt8], String, String?)])
    func refused(bytes: [UInt8], type: String, keyClass: String?) {
        let (key, status) = makeKey(Data(bytes), Self.attributes(type: type, keyClass: keyClass))
        #expect(key == nil)
        #expect(status == errSecParam)
    }

    @Test("SecItemAdd with kSecValueRef stores the key with its key-class attributes; kSecReturnRef gives it back")
    func storeAndReadBack() throws {
        let keychain = makeKeychain()
        let key = try #require(makeKey().0)
        let tag = Data("com.example.signing".utf8)
        let control = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, .privateKeyUsage, nil))
        let add: Query = [
            kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecValueRef: key, kSecAttrAccessControl: control,
        ]
        #expect(keychain.add(add) == errSecSuccess)
        #expect(keychain.add(add) == errSecDuplicateItem)
        let query: Query = [kSecClass: kSecClassKey, kSecAttrApplicationTag: tag, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
        let byRef = keychain.copy(query.merging([kSecReturnRef: true]) { $1 })
        #expect(byRef.status == errSecSuccess)
        #expect(byRef.result as? SecKey == key)
        let both = keychain.copy(query.merging([kSecReturnRef: true, kSecReturnAttributes: true]) { $1 })
        let attributes = try #require(both.result as? [String: Any])
        #expect(attributes[kSecValueRef as String] as? SecKey == key)
        #expect((attributes[kSecAttrKeyType as String] as? NSNumber)?.intValue == 73)
        #expect((attributes[kSecAttrKeySizeInBits as String] as? NSNumber)?.intValue == 256)
        #expect(attributes[kSecAttrAccessible as String] as? String == "aku")
        // A password still has no reference type (row 23).
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.copy(password("a", [kSecReturnRef: true])).result == nil)
        #expect(keychain.delete(query as CFDictionary) == errSecSuccess)
        #expect(keychain.copy(query.merging([kSecReturnRef: true]) { $1 }).status == errSecItemNotFound)
    }

    @Test("a stored key is locked as its protection class says")
    func lockedKey() throws {
        let key = try #require(makeKey().0)
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        let add: Query = [kSecClass: kSecClassKey, kSecValueRef: key, kSecAttrAccessible: kSecAttrAccessibleWhenUnlocked]
        #expect(makeKeychain(path: path).add(add) == errSecSuccess)
        let locked = makeKeychain(lock: .locked, path: path)
        #expect(locked.copy([kSecClass: kSecClassKey, kSecReturnRef: true]).status == errSecInteractionNotAllowed)
    }
}
