/// Reads the embedded code signature (`cs_blobs.h`): a big-endian SuperBlob of typed blobs.
enum CodeSignature {
    static let superBlobMagic: UInt32 = 0xfade_0cc0
    static let entitlementsMagic: UInt32 = 0xfade_7171
    static let entitlementsSlot: UInt32 = 5

    /// The XML plist of the entitlements blob in slot 5, or nil when the signature has none (an ad hoc signature
    /// without entitlements).
    static func entitlements(in reader: ByteReader) throws(EntitlementsError) -> [UInt8]? {
        let magic = try reader.u32("SuperBlob magic", at: 0, bigEndian: true)
        guard magic == superBlobMagic else {
            throw EntitlementsError(
                reader.file,
                "code signature at offset \(String.hex(reader.base)) has wrong magic "
                    + "\(String.hex(magic)), expected 0xfade0cc0 (embedded signature SuperBlob)")
        }
        let length = try reader.int(try reader.u32("SuperBlob length", at: 4, bigEndian: true), "SuperBlob length")
        guard length >= 12, length <= reader.count else {
            throw EntitlementsError(
                reader.file,
                "code signature SuperBlob length \(length) does not fit its "
                    + "\(reader.count)-byte LC_CODE_SIGNATURE range")
        }
        let count = try reader.int(try reader.u32("SuperBlob count", at: 8, bigEndian: true), "SuperBlob count")
        guard count <= (length - 12) / 8 else {
            throw EntitlementsError(reader.file, "code signature SuperBlob claims \(count) blobs in \(length) bytes")
        }
        for index in 0..<count {
            let type = try reader.u32("blob index type", at: 12 + index * 8, bigEndian: true)
            guard type == entitlementsSlot else { continue }
            let offset = try reader.int(try reader.u32("blob index offset", at: 16 + index * 8, bigEndian: true), "blob offset")
            let blobMagic = try reader.u32("entitlements blob magic", at: offset, bigEndian: true)
            guard blobMagic == entitlementsMagic else {
                throw EntitlementsError(
                    reader.file,
                    "entitlements slot of the code signature has wrong magic "
                        + "\(String.hex(blobMagic)), expected 0xfade7171")
            }
            let blobLength = try reader.int(
                try reader.u32("entitlements blob length", at: offset + 4, bigEndian: true), "blob length")
            guard blobLength >= 8, offset <= length, blobLength <= length - offset else {
                throw EntitlementsError(reader.file, "entitlements blob length \(blobLength) overruns the SuperBlob")
            }
            return try reader.range("entitlements blob", offset: offset + 8, count: blobLength - 8)
        }
        return nil
    }
}
