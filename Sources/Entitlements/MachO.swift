/// What one thin Mach-O image says about its entitlements: its `__TEXT,__entitlements` section and its signature's blob.
public struct MachOSlice: Sendable, Equatable {
    /// `arm64`, `x86_64`, ... (or `cputype 0x...` for others).
    public let architecture: String
    /// The XML from the `__TEXT,__entitlements` section, trailing NULs removed, when the section exists.
    public let sectionPlist: [UInt8]?
    /// The XML from the code signature's entitlements blob (0xfade7171), when there is one.
    public let signaturePlist: [UInt8]?
    /// Whether the image has an `LC_CODE_SIGNATURE` load command at all.
    public let isSigned: Bool
}

/// Reads thin 64-bit Mach-O images (`mach-o/loader.h`), little-endian as arm64 and x86_64 are.
enum MachOImage {
    static let magic64: UInt32 = 0xfeed_facf
    static let magic32: UInt32 = 0xfeed_face
    static let lcSegment64: UInt32 = 0x19
    static let lcCodeSignature: UInt32 = 0x1d

    static func architecture(cpuType: UInt32, subtype: UInt32) -> String {
        switch cpuType {
        case 0x0100_0007: return "x86_64"
        case 0x0100_000c: return subtype & 0xff == 2 ? "arm64e" : "arm64"
        case 0x0200_000c: return "arm64_32"
        case 7: return "i386"
        case 12: return "arm"
        default: return "cputype \(String.hex(cpuType))"
        }
    }

    /// Parses one thin image whose bytes `reader` holds.
    static func read(_ reader: ByteReader) throws(EntitlementsError) -> MachOSlice {
        let file = reader.file
        guard reader.count >= 4 else { throw reader.truncated("Mach-O magic", offset: 0, count: 4) }
        let magic = try reader.u32("Mach-O magic", at: 0, bigEndian: false)
        switch magic {
        case magic64: break
        case magic32:
            throw EntitlementsError(file, "32-bit Mach-O (magic 0xfeedface) is not supported; iOS apps are 64-bit")
        case 0xcffa_edfe, 0xcefa_edfe:
            throw EntitlementsError(file, "big-endian Mach-O is not supported")
        default:
            throw EntitlementsError(
                file, "wrong magic \(String.hex(magic)) at offset \(String.hex(reader.base)): not a Mach-O image")
        }
        let cpuType = try reader.u32("cputype", at: 4, bigEndian: false)
        let cpuSubtype = try reader.u32("cpusubtype", at: 8, bigEndian: false)
        let commandCount = try reader.int(try reader.u32("ncmds", at: 16, bigEndian: false), "ncmds")
        let commandsSize = try reader.int(try reader.u32("sizeofcmds", at: 20, bigEndian: false), "sizeofcmds")
        let headerSize = 32
        guard reader.contains(offset: headerSize, count: commandsSize) else {
            throw reader.truncated("load commands (sizeofcmds \(commandsSize))", offset: headerSize, count: commandsSize)
        }
        guard commandCount <= commandsSize / 8 else {
            throw EntitlementsError(file, "ncmds \(commandCount) cannot fit in sizeofcmds \(commandsSize)")
        }
        var section: [UInt8]?
        var signature: [UInt8]?
        var signed = false
        var offset = headerSize
        let commandsEnd = headerSize + commandsSize
        for index in 0..<commandCount {
            let command = try reader.u32("load command \(index)", at: offset, bigEndian: false)
            let size = try reader.int(
                try reader.u32("cmdsize of load command \(index)", at: offset + 4, bigEndian: false), "cmdsize")
            guard size >= 8, size <= commandsEnd - offset else {
                throw EntitlementsError(
                    file,
                    "load command \(index) at offset \(String.hex(reader.base + offset)) "
                        + "has a bad cmdsize \(size)")
            }
            switch command {
            case lcSegment64:
                if let found = try entitlementsSection(reader, command: offset, size: size) { section = found }
            case lcCodeSignature:
                guard size >= 16 else { throw EntitlementsError(file, "LC_CODE_SIGNATURE is \(size) bytes, expected 16") }
                signed = true
                let dataOffset = try reader.int(
                    try reader.u32("LC_CODE_SIGNATURE dataoff", at: offset + 8, bigEndian: false), "dataoff")
                let dataSize = try reader.int(
                    try reader.u32("LC_CODE_SIGNATURE datasize", at: offset + 12, bigEndian: false), "datasize")
                let blob = try reader.range("code signature", offset: dataOffset, count: dataSize)
                signature = try CodeSignature.entitlements(in: ByteReader(blob, file: file, base: reader.base + dataOffset))
            default:
                break
            }
            offset += size
        }
        return MachOSlice(
            architecture: architecture(cpuType: cpuType, subtype: cpuSubtype),
            sectionPlist: section, signaturePlist: signature, isSigned: signed)
    }

    /// The contents of `__TEXT,__entitlements` if this `LC_SEGMENT_64` holds it (object files keep every section in
    /// one unnamed segment, so the section's own segment name is what counts).
    static func entitlementsSection(_ reader: ByteReader, command: Int, size: Int) throws(EntitlementsError) -> [UInt8]? {
        let segmentHeader = 72
        let sectionSize = 80
        guard size >= segmentHeader else {
            throw EntitlementsError(reader.file, "LC_SEGMENT_64 is \(size) bytes, expected at least 72")
        }
        let sectionCount = try reader.int(try reader.u32("nsects", at: command + 64, bigEndian: false), "nsects")
        guard sectionCount <= (size - segmentHeader) / sectionSize else {
            throw EntitlementsError(
                reader.file,
                "LC_SEGMENT_64 at offset \(String.hex(reader.base + command)) "
                    + "claims \(sectionCount) sections but has room for \((size - segmentHeader) / sectionSize)")
        }
        for index in 0..<sectionCount {
            let header = command + segmentHeader + index * sectionSize
            let name = try reader.fixedString("section name", at: header, count: 16)
            let segment = try reader.fixedString("segment name", at: header + 16, count: 16)
            guard name == "__entitlements", segment == "__TEXT" else { continue }
            let length = try reader.int(try reader.u64("__entitlements size", at: header + 40, bigEndian: false), "section size")
            let fileOffset = try reader.int(
                try reader.u32("__entitlements offset", at: header + 48, bigEndian: false), "section offset")
            var bytes = try reader.range("__TEXT,__entitlements contents", offset: fileOffset, count: length)
            while bytes.last == 0 { bytes.removeLast() }
            return bytes
        }
        return nil
    }
}
