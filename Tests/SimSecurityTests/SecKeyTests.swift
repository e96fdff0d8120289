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

    /// The public point (04 || X || Y) of an EC P-256 key made by `openssl ecparam -name prime256v1
    /// -genkey`, and filler for the private scalar (no private key is kept in the repository).
    static let ecPublic = hex(
        "04eaa95fc47632e21a2c23fecc712d9284b4e1122668d8eea2fdf9a2ad604bfbefb9a94d6b0754b9411fd42e103a0803903e2857141605e78da94cc3cf876f3791"
    )
    static let ecScalar = Data(repeating: 0x5A, count: 32)
    /// The `RSAPublicKey` (PKCS #1, the form iOS exports an RSA public key in) of a 1024-bit key made
    /// by `openssl genrsa -traditional 1024`, as `openssl rsa -RSAPublicKey_out -outform DER` gives it.
    static let rsaPublic = Data(
        base64Encoded:
            "MIGJAoGBAN+Vkz4wN3pi/6HpO28udWksNOpLFHXQdhlC4Hs107y+ORFECYUiiPkKYJ5LfYkWC9zXVkGdSM+wVxyufAagxOeM"
            + "JC5QDHhnHyXNtjllHY5fHYaEGQaQo08v23Db6u6JoWh0kSsq2O2hEymVKuFwslHxxMn42Hzwpbv6uxpuJyC/AgMBAAE=")!

    /// An `RSAPrivateKey` laid out as openssl writes one (`SEQUENCE { version 0, modulus, publicExponent,
    /// privateExponent, prime1, prime2, exponent1, exponent2, coefficient }`, long-form lengths),
    /// holding `rsaPublic`'s modulus and exponent and filler for the private fields: no private key
    /// is kept in the repository, and none is needed to find the public one.
    static var rsaPrivate: Data {
        let publicKey = [UInt8](rsaPublic)
        // rsaPublic is 30 81 89 | modulus (02 81 81 ...) | exponent (02 03 ...).
        let fields = Array(publicKey[3...])
        func integer(_ count: Int, fill: UInt8) -> [UInt8] {
            [0x02] + (count < 0x80 ? [UInt8(count)] : [0x81, UInt8(count)]) + [0x01] + [UInt8](repeating: fill, count: count - 1)
        }
        let body =
            [0x02, 0x01, 0x00] + fields + integer(128, fill: 0x11) + integer(65, fill: 0x22) + integer(65, fill: 0x33)
            + integer(64, fill: 0x44) + integer(64, fill: 0x55) + integer(64, fill: 0x66)
        return Data([0x30, 0x82, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body)
    }

    static func hex(_ text: String) -> Data {
        Data(
            stride(from: 0, to: text.count, by: 2).map { offset in
                let start = text.index(text.startIndex, offsetBy: offset)
                return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
            })
    }

    @Test("SecKeyCopyPublicKey: an EC private key's point, an RSA private key's modulus and exponent, as openssl derives them")
    func publicKey() throws {
        var error: Unmanaged<CFError>?
        let ecPrivate = try #require(makeKey(Self.ecPublic + Self.ecScalar).0)
        let ecPublic = try #require(SecKeyCopyPublicKey(ecPrivate))
        #expect(SecKeyCopyExternalRepresentation(ecPublic, &error) as Data? == Self.ecPublic)
        #expect(ecPublic.keyClass == "0" && ecPublic.sizeInBits == 256)
        #expect(ecPublic == makeKey(Self.ecPublic, Self.attributes(type: "73", keyClass: "0")).0)
        #expect(SecKeyCopyPublicKey(ecPublic) == ecPublic, "a public key's public key is itself")

        let rsaPrivate = try #require(makeKey(Self.rsaPrivate, Self.attributes(type: "42", keyClass: "1")).0)
        let rsaPublic = try #require(SecKeyCopyPublicKey(rsaPrivate))
        #expect(SecKeyCopyExternalRepresentation(rsaPublic, &error) as Data? == Self.rsaPublic)
        #expect(rsaPublic.keyClass == "0" && SecKeyGetBlockSize(rsaPublic) == 128)
        #expect(
            SecKeyCopyAttributes(rsaPublic).flatMap { ($0 as? [String: Any])?[kSecAttrKeySizeInBits as String] as? Int } == 1024)
    }

    @Test("SecKeyCopyPublicKey on the larger curves takes two field elements; bytes with no public key give nil")
    func publicKeyEdges() throws {
        for (bits, field) in [(384, 48), (521, 66)] {
            let key = try #require(makeKey(Data([0x04] + (0..<3 * field).map { UInt8($0 & 0xFF) })).0)
            let bytes = SecKeyCopyPublicKey(key).map { [UInt8]($0.bytes) }
            #expect(bytes == [0x04] + (0..<2 * field).map { UInt8($0 & 0xFF) }, "P-\(bits)")
        }
        // A DER sequence that is not an RSAPrivateKey: a version and nothing else.
        let truncated = try #require(makeKey(Data([0x30, 0x03, 0x02, 0x01, 0x00]), Self.attributes(type: "42", keyClass: "1")).0)
        #expect(SecKeyCopyPublicKey(truncated) == nil)
        // A length that runs past the bytes.
        let overlong = try #require(
            makeKey(Data([0x30, 0x84, 0x7F, 0xFF, 0xFF, 0xFF, 0x02]), Self.attributes(type: "42", keyClass: "1")).0)
        #expect(SecKeyCopyPublicKey(overlong) == nil)
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

    @Test(
        "kSecValueRef in a search names the items holding that key: found without a class, deleted alone, updated alone; another class is errSecNoSuchAttr"
    )
    func searchByReference() throws {
        let keychain = makeKeychain()
        let first = try #require(makeKey().0)
        let second = try #require(makeKey(Data([0x04] + (101...196).map { UInt8($0) })).0)
        let unstored = try #require(makeKey(Data([0x04] + (2...97).map { UInt8($0) })).0)
        for (key, tag) in [(first, "first"), (second, "second")] {
            let add: Query = [kSecClass: kSecClassKey, kSecAttrApplicationTag: Data(tag.utf8), kSecValueRef: key]
            #expect(keychain.add(add) == errSecSuccess)
        }
        func tag(of key: SecKey) -> String? {
            let found = keychain.copy([kSecValueRef: key, kSecReturnAttributes: true])
            return (found.result as? [String: Any])?[kSecAttrApplicationTag as String].flatMap { $0 as? Data }
                .map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(tag(of: first) == "first")
        #expect(tag(of: second) == "second")
        #expect(keychain.copy([kSecValueRef: unstored, kSecReturnAttributes: true]).status == errSecItemNotFound)
        #expect(
            keychain.update([kSecClass: kSecClassKey, kSecValueRef: second], [kSecAttrLabel: "renamed"]) == errSecSuccess)
        let labels = keychain.copy([kSecClass: kSecClassKey, kSecReturnAttributes: true, kSecMatchLimit: kSecMatchLimitAll])
        let byTag = Dictionary(
            uniqueKeysWithValues: ((labels.result as? [[String: Any]]) ?? []).map {
                (
                    String(decoding: ($0[kSecAttrApplicationTag as String] as? Data) ?? Data(), as: UTF8.self),
                    $0[kSecAttrLabel as String] as? String
                )
            })
        #expect(byTag == ["first": nil, "second": "renamed"], "only the referenced key's item changed")
        #expect(keychain.delete([kSecClass: kSecClassKey, kSecValueRef: second]) == errSecSuccess)
        #expect(tag(of: first) == "first", "the other key stays")
        #expect(keychain.copy([kSecValueRef: second]).status == errSecItemNotFound)
        #expect(keychain.copy([kSecClass: kSecClassGenericPassword, kSecValueRef: first]).status == errSecNoSuchAttr)
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
