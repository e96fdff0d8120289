import Foundation

/// `kSecValuePersistentRef` values: the class's four letters and the row's id, big-endian.
/// Rowids are never reused (AUTOINCREMENT), so a reference never names a later item.
enum PersistentReference {
    static func encode(_ itemClass: ItemClass, rowid: Int64) -> Data {
        var data = Data(itemClass.rawValue.utf8)
        withUnsafeBytes(of: rowid.bigEndian) { data.append(contentsOf: $0) }
        return data
    }

    static func decode(_ data: Data) -> (ItemClass, Int64)? {
        let bytes = [UInt8](data)
        guard bytes.count == 12, let itemClass = ItemClass(rawValue: String(decoding: bytes[0..<4], as: UTF8.self)) else {
            return nil
        }
        let rowid = bytes[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return (itemClass, rowid)
    }
}

/// Stores an access-control object in the `accc` column as `protection;flags`, and for one that
/// holds `.biometryCurrentSet` `protection;flags;generation`: the device's biometry enrollment
/// generation when the item was added, which `device biometry --change` leaves behind. A value
/// without a generation (written before it was kept) stands for generation 1, a device's first.
enum AccessControlCoding {
    static func encode(_ control: SecAccessControl, biometryGeneration: Int = 1) -> String {
        let base = "\(control.protection);\(control.flags.rawValue)"
        return control.flags.contains(.biometryCurrentSet) ? base + ";\(biometryGeneration)" : base
    }

    static func decode(_ text: String) -> SecAccessControl? {
        let parts = text.split(separator: ";")
        guard parts.count == 2 || parts.count == 3, let flags = UInt(parts[1]) else { return nil }
        return SecAccessControl(protection: String(parts[0]), flags: SecAccessControlCreateFlags(rawValue: flags))
    }

    /// The biometry generation an encoded value was bound to (1 when it names none).
    static func biometryGeneration(_ text: String) -> Int {
        let parts = text.split(separator: ";")
        return parts.count == 3 ? Int(parts[2]) ?? 1 : 1
    }
}

/// What an item's access control asks of a read of its secret (docs/simsecurity.md, rows 50-53).
enum AccessControlCheck {
    /// The flags that need the user: a Face ID, Touch ID or passcode prompt.
    static let prompting: SecAccessControlCreateFlags = [.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode]

    /// The status a read of the secret of a row whose `accc` is `encoded` answers, nil when it may
    /// be read: errSecAuthFailed for a `.biometryCurrentSet` item of another biometry generation
    /// (invalidated; no passcode fallback in its flags), errSecInteractionNotAllowed when it needs
    /// a prompt the call cannot show.
    static func refusal(_ encoded: String, canPrompt: Bool, biometryGeneration: Int) -> OSStatus? {
        guard let control = AccessControlCoding.decode(encoded) else { return nil }
        let flags = control.flags
        guard !flags.isDisjoint(with: prompting) else { return nil }
        let passcodeFallback = flags.contains(.or) && !flags.isDisjoint(with: [.userPresence, .devicePasscode])
        if flags.contains(.biometryCurrentSet), !passcodeFallback,
            AccessControlCoding.biometryGeneration(encoded) != biometryGeneration
        {
            return errSecAuthFailed
        }
        return canPrompt ? nil : errSecInteractionNotAllowed
    }
}
