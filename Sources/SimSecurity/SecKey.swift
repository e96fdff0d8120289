import Foundation

/// A key: its class (`kSecAttrKeyClass…`), type (`kSecAttrKeyType…`), size and external
/// representation, as `SecKeyCreateWithData` takes it and `SecKeyCopyExternalRepresentation` gives
/// it back (for EC keys, the ANSI X9.63 bytes `04 || X || Y`, with `|| K` for a private key).
///
/// SimSecurity keeps keys; it does no cryptography (there is no crypto library in the toolchain on
/// Linux): `SecKeyCreateRandomKey`, `SecKeyCopyPublicKey`, signing and encryption are missing
/// (docs/simsecurity.md). A key stored with `kSecValueRef` and read back with `kSecReturnRef` is
/// the same key, which is what a migration that moves keys between items needs.
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
