import Foundation

/// A key: its class (`kSecAttrKeyClass…`), type (`kSecAttrKeyType…`), size and external
/// representation, as `SecKeyCreateWithData` takes it and `SecKeyCopyExternalRepresentation` gives
/// it back (for EC keys, the ANSI X9.63 bytes `04 || X || Y`, with `|| K` for a private key).
///
/// SimSecurity keeps keys; it does no cryptography (there is no crypto library in the toolchain on
/// Linux): `SecKeyCreateRandomKey`, signing and encryption are missing (docs/simsecurity.md).
/// `SecKeyCopyPublicKey` needs none: a private key's bytes hold its public key. A key stored with
/// `kSecValueRef` and read back with `kSecReturnRef` is the same key, which is what a migration that
/// moves keys between items needs.
///
/// Two keys with the same class, type and bytes are equal, as two references to one key are on iOS.
public final class SecKey: Hashable, @unchecked Sendable {
    /// `kSecAttrKeyClassPublic` ("0"), `…Private` ("1") or `…Symmetric` ("2").
    public let keyClass: String
    /// `kSecAttrKeyTypeRSA` ("42") or `kSecAttrKeyTypeECSECPrimeRandom` ("73").
    public let keyType: String
    public let sizeInBits: Int
    let bytes: Data

    init(keyClass: String, keyType: String, sizeInBits: Int, bytes: Data) {
        self.keyClass = keyClass
        self.keyType = keyType
        self.sizeInBits = sizeInBits
        self.bytes = bytes
    }

    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        lhs.keyClass == rhs.keyClass && lhs.keyType == rhs.keyType && lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(keyClass)
        hasher.combine(keyType)
        hasher.combine(bytes)
    }

    /// The key-class attributes an add by reference stores (kcls, type, bsiz, esiz) under their raw keys.
    var itemAttributes: [String: Any] {
        ["kcls": keyClass, "type": keyType, "bsiz": sizeInBits, "esiz": sizeInBits]
    }

    /// The size of an EC key from the length of its X9.63 bytes, or nil when the length fits no curve.
    static func ellipticCurveSize(byteCount: Int, keyClass: String) -> Int? {
        // P-256, P-384, P-521: 1 + 2n bytes public, 1 + 3n private, n = 32, 48, 66.
        for (bits, n) in [(256, 32), (384, 48), (521, 66)] {
            if byteCount == (keyClass == "1" ? 1 + 3 * n : 1 + 2 * n) { return bits }
        }
        return nil
    }

    /// A key from stored attributes and bytes (an item of class keys), or nil when they do not name one.
    static func stored(attributes: [String: Any], bytes: Data?) -> SecKey? {
        guard let bytes, let keyClass = (attributes["kcls"] as? NSNumber)?.stringValue,
            let keyType = (attributes["type"] as? NSNumber)?.stringValue
        else { return nil }
        let size = (attributes["bsiz"] as? NSNumber)?.intValue ?? 0
        return SecKey(keyClass: keyClass, keyType: keyType, sizeInBits: size, bytes: bytes)
    }
}

private func fail(_ status: OSStatus, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> SecKey? {
    error?.pointee = Unmanaged.passRetained(NSError(domain: kCFErrorDomainOSStatus as String, code: Int(status)))
    return nil
}

/// Makes a key from its external representation and the attributes `kSecAttrKeyType` and
/// `kSecAttrKeyClass` (`kSecAttrKeySizeInBits` optional). EC bytes must have a curve's length
/// for their class; RSA bytes must be a DER sequence (PKCS #1). Otherwise nil, and an error of
/// ``kCFErrorDomainOSStatus`` with errSecParam.
public func SecKeyCreateWithData(
    _ keyData: CFData, _ attributes: CFDictionary, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    let bytes = Data(referencing: keyData)
    var dictionary: [String: Any] = [:]
    for (key, value) in attributes { if let key = key as? String { dictionary[key] = value } }
    func text(_ key: String) -> String? {
        switch dictionary[key] {
        case let value as String: value
        case let value as NSNumber: value.stringValue
        default: nil
        }
    }
    guard let keyType = text("type"), let keyClass = text("kcls"), ["0", "1", "2"].contains(keyClass) else {
        return fail(errSecParam, error)
    }
    let declaredSize = (dictionary["bsiz"] as? NSNumber)?.intValue ?? text("bsiz").flatMap { Int($0) }
    switch keyType {
    case "73":  // kSecAttrKeyTypeEC, kSecAttrKeyTypeECSECPrimeRandom
        guard keyClass != "2", bytes.first == 0x04,
            let size = SecKey.ellipticCurveSize(byteCount: bytes.count, keyClass: keyClass),
            declaredSize == nil || declaredSize == size
        else { return fail(errSecParam, error) }
        return SecKey(keyClass: keyClass, keyType: keyType, sizeInBits: size, bytes: bytes)
    case "42":  // kSecAttrKeyTypeRSA
        guard keyClass != "2", bytes.first == 0x30 else { return fail(errSecParam, error) }
        return SecKey(keyClass: keyClass, keyType: keyType, sizeInBits: declaredSize ?? 0, bytes: bytes)
    default:
        return fail(errSecParam, error)
    }
}

/// The key's external representation (the bytes it was made from).
public func SecKeyCopyExternalRepresentation(
    _ key: SecKey, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    NSData(data: key.bytes)
}

/// The key's attributes: `kSecAttrKeyClass`, `kSecAttrKeyType`, `kSecAttrKeySizeInBits`,
/// `kSecAttrEffectiveKeySize` and its bytes under `kSecValueData`.
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    var attributes = key.itemAttributes
    attributes["v_Data"] = key.bytes
    return NSDictionary(dictionary: attributes)
}

/// The block size of the key in bytes (for EC, the size of the curve's field element).
public func SecKeyGetBlockSize(_ key: SecKey) -> Int { (key.sizeInBits + 7) / 8 }

/// The public key of `key`: `key` itself when it is public; for an EC private key, its X9.63 bytes
/// without the scalar (`04 || X || Y`); for an RSA private key (PKCS #1 `RSAPrivateKey`), the
/// `RSAPublicKey` of its modulus and public exponent, its size the modulus's bits. Nil for a
/// symmetric key or bytes that hold no public key, as iOS answers when the public key is not
/// available. No cryptography: both are in a private key's bytes.
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    switch (key.keyClass, key.keyType) {
    case ("0", _):
        return key
    case ("1", "73"):
        // 04 || X || Y: two field elements of the curve's size in bytes.
        let field = (key.sizeInBits + 7) / 8
        // A copy, so the public key holds no reference to the private key's bytes.
        return SecKey(
            keyClass: "0", keyType: key.keyType, sizeInBits: key.sizeInBits, bytes: Data(key.bytes.prefix(1 + 2 * field)))
    case ("1", "42"):
        guard let (modulus, exponent, bits) = RSAPrivateKeyFields(key.bytes) else { return nil }
        return SecKey(keyClass: "0", keyType: key.keyType, sizeInBits: bits, bytes: DER.sequence(modulus + exponent))
    default:
        return nil
    }
}

/// The DER elements of a PKCS #1 `RSAPrivateKey` (`SEQUENCE { version, modulus, publicExponent,
/// ... }`) that its public key is made of: the modulus's and the exponent's whole encodings, and
/// the modulus's size in bits. Nil when the bytes are not such a sequence.
private func RSAPrivateKeyFields(_ bytes: Data) -> (modulus: Data, exponent: Data, bits: Int)? {
    let bytes = [UInt8](bytes)
    guard let outer = DER.element(bytes, at: 0), outer.tag == 0x30, outer.end == bytes.count,
        let version = DER.element(bytes, at: outer.content.lowerBound), version.tag == 0x02,
        let modulus = DER.element(bytes, at: version.end), modulus.tag == 0x02,
        let exponent = DER.element(bytes, at: modulus.end), exponent.tag == 0x02
    else { return nil }
    let digits = bytes[modulus.content].drop { $0 == 0 }
    guard let first = digits.first else { return nil }
    let bits = (digits.count - 1) * 8 + (8 - first.leadingZeroBitCount)
    return (Data(bytes[modulus.start..<modulus.end]), Data(bytes[exponent.start..<exponent.end]), bits)
}

/// Just enough DER for keys: one element's tag and where its content lies, and a sequence's encoding.
private enum DER {
    struct Element {
        var tag: UInt8
        var start: Int
        var content: Range<Int>
        var end: Int { content.upperBound }
    }

    /// The element starting at `offset`, or nil when its length runs past the bytes or is not DER's.
    static func element(_ bytes: [UInt8], at offset: Int) -> Element? {
        guard offset + 2 <= bytes.count else { return nil }
        var index = offset + 1
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard (1...4).contains(count), index + count <= bytes.count else { return nil }
            length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
            index += count
        }
        guard length <= bytes.count - index else { return nil }
        return Element(tag: bytes[offset], start: offset, content: index..<index + length)
    }

    /// A `SEQUENCE` holding `content`.
    static func sequence(_ content: Data) -> Data {
        var length: [UInt8] = []
        if content.count < 0x80 {
            length = [UInt8(content.count)]
        } else {
            var remaining = content.count
            while remaining > 0 {
                length.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            length.insert(0x80 | UInt8(length.count), at: 0)
        }
        return Data([0x30] + length) + content
    }
}
