/// Assembles Mach-O images, universal files and code-signature SuperBlobs byte by byte, from the layouts in
/// mach-o/loader.h, mach-o/fat.h and cs_blobs.h, so tests can make the shapes no local linker can.
enum MachOBuilder {
    static let arm64: UInt32 = 0x0100_000c
    static let x86_64: UInt32 = 0x0100_0007
    static let arm: UInt32 = 12
    static let armv7: UInt32 = 9
    static let i386: UInt32 = 7

    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func le64(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
    static func be32(_ value: UInt32) -> [UInt8] { le32(value).reversed() }
    static func be64(_ value: UInt64) -> [UInt8] { le64(value).reversed() }
    static func name16(_ text: String) -> [UInt8] { Array((Array(text.utf8) + [UInt8](repeating: 0, count: 16)).prefix(16)) }

    /// A generic blob: big-endian magic, length (header included), payload.
    static func blob(magic: UInt32, _ payload: [UInt8]) -> [UInt8] {
        be32(magic) + be32(UInt32(8 + payload.count)) + payload
    }

    /// An embedded-signature SuperBlob (0xfade0cc0) holding `blobs` at their slot types, in order.
    static func superBlob(_ blobs: [(slot: UInt32, bytes: [UInt8])]) -> [UInt8] {
        let headerSize = 12 + 8 * blobs.count
        var index: [UInt8] = []
        var body: [UInt8] = []
        for entry in blobs {
            index += be32(entry.slot) + be32(UInt32(headerSize + body.count))
            body += entry.bytes
        }
        return be32(0xfade_0cc0) + be32(UInt32(headerSize + body.count)) + be32(UInt32(blobs.count)) + index + body
    }

    /// A signature like a device build's: a stand-in CodeDirectory, empty requirements, and the entitlements blob.
    static func signature(entitlements: [UInt8]?) -> [UInt8] {
        var blobs: [(slot: UInt32, bytes: [UInt8])] = [
            (0, blob(magic: 0xfade_0c02, [UInt8](repeating: 0, count: 32))),
            (2, blob(magic: 0xfade_0c01, be32(0))),
        ]
        if let entitlements { blobs.append((5, blob(magic: 0xfade_7171, entitlements))) }
        return superBlob(blobs)
    }

    /// A thin executable (64-bit, or 32-bit when `wide` is false: a 28-byte header, `LC_SEGMENT` and 68-byte
    /// sections) with a `__TEXT` segment holding `section` as `__entitlements` (when given) and an
    /// `LC_CODE_SIGNATURE` pointing at `signature` (when given), both laid out after the load commands.
    static func thin(cpu: UInt32, section: [UInt8]?, signature: [UInt8]?, wide: Bool = true, subtype: UInt32 = 0) -> [UInt8] {
        let headerSize = wide ? 32 : 28
        let word = { (value: Int) in wide ? le64(UInt64(value)) : le32(UInt32(value)) }
        let segmentSize = section == nil ? 0 : (wide ? 72 + 80 : 56 + 68)
        let signatureCommandSize = signature == nil ? 0 : 16
        let commandsSize = segmentSize + signatureCommandSize
        let dataStart = headerSize + commandsSize
        var commands: [UInt8] = []
        var payload: [UInt8] = []
        if let section {
            let offset = dataStart + payload.count
            commands +=
                le32(wide ? 0x19 : 0x1) + le32(UInt32(segmentSize)) + name16("__TEXT")
                + word(0) + word(section.count) + word(offset) + word(section.count)
                + le32(5) + le32(5) + le32(1) + le32(0)
            commands +=
                name16("__entitlements") + name16("__TEXT") + word(0) + word(section.count)
                + le32(UInt32(offset)) + le32(0) + le32(0) + le32(0) + le32(0) + le32(0) + le32(0)
                + (wide ? le32(0) : [])
            payload += section
        }
        if let signature {
            while (dataStart + payload.count) % 16 != 0 { payload.append(0) }
            commands += le32(0x1d) + le32(16) + le32(UInt32(dataStart + payload.count)) + le32(UInt32(signature.count))
            payload += signature
        }
        let ncmds = UInt32((section == nil ? 0 : 1) + (signature == nil ? 0 : 1))
        let header =
            le32(wide ? 0xfeed_facf : 0xfeed_face) + le32(cpu) + le32(subtype) + le32(2) + le32(ncmds)
            + le32(UInt32(commandsSize)) + le32(0) + (wide ? le32(0) : [])
        return header + commands + payload
    }

    /// A universal file (FAT_MAGIC, or FAT_MAGIC_64 when `wide`) holding `slices`, each aligned to 16 bytes.
    static func universal(_ slices: [(cpu: UInt32, bytes: [UInt8])], wide: Bool = false) -> [UInt8] {
        let entrySize = wide ? 32 : 20
        var offset = 8 + entrySize * slices.count
        var header = be32(wide ? 0xcafe_babf : 0xcafe_babe) + be32(UInt32(slices.count))
        var body: [UInt8] = []
        for slice in slices {
            while offset % 16 != 0 {
                offset += 1
                body.append(0)
            }
            if wide {
                header += be32(slice.cpu) + be32(0) + be64(UInt64(offset)) + be64(UInt64(slice.bytes.count)) + be32(4) + be32(0)
            } else {
                header += be32(slice.cpu) + be32(0) + be32(UInt32(offset)) + be32(UInt32(slice.bytes.count)) + be32(4)
            }
            body += slice.bytes
            offset += slice.bytes.count
        }
        return header + body
    }
}
