/// What one thin Mach-O image says about its entitlements: its `__TEXT,__entitlements` section and its signature's blob.
public struct MachOSlice: Sendable, Equatable {
    /// `arm64`, `armv7`, `i386`, `x86_64`, ... (or `cputype 0x...` for others).
    public let architecture: String
    /// Whether the image is 64-bit (`0xfeedfacf`) rather than 32-bit (`0xfeedface`).
    public let is64Bit: Bool
    /// Whether the image is a dSYM companion (`MH_DSYM`): load commands and debug information, no code or data.
    public let isDebugCompanion: Bool
    /// The XML from the `__TEXT,__entitlements` section, trailing NULs removed, when the section has contents.
    public let sectionPlist: [UInt8]?
    /// Whether an `__TEXT,__entitlements` section header is there without contents in the file (file offset 0,
    /// size 0 or a zero-fill type), as a dSYM companion keeps it.
    public let sectionWithoutContents: Bool
    /// The XML from the code signature's entitlements blob (0xfade7171), when there is one.
    public let signaturePlist: [UInt8]?
    /// Whether the image has an `LC_CODE_SIGNATURE` load command at all.
    public let isSigned: Bool
}

/// Reads thin Mach-O images (`mach-o/loader.h`), 32- and 64-bit, little-endian as every Apple CPU since PowerPC is.
///
/// The two widths differ only in the header's size and in the segment and section commands' field widths; load
/// commands, `LC_CODE_SIGNATURE` and the signature itself are the same, so one walk serves both.
enum MachOImage {
    static let magic64: UInt32 = 0xfeed_facf
    static let magic32: UInt32 = 0xfeed_face
    static let lcCodeSignature: UInt32 = 0x1d
    static let fileTypeDebugCompanion: UInt32 = 0xa

    /// Where the fields this reader needs sit in one width's header, segment command and section header.
    struct Layout {
        let headerSize: Int
        let segmentCommand: UInt32
        let segmentName: String
        let segmentHeaderSize: Int
        let sectionCountOffset: Int
        let sectionSize: Int
        /// Offset of the section's `size` inside its header; 8 bytes wide in 64-bit images, 4 in 32-bit ones.
        let sectionSizeOffset: Int
        let sectionFileOffsetOffset: Int
        let is64Bit: Bool

        static let wide = Layout(
            headerSize: 32, segmentCommand: 0x19, segmentName: "LC_SEGMENT_64", segmentHeaderSize: 72,
            sectionCountOffset: 64, sectionSize: 80, sectionSizeOffset: 40, sectionFileOffsetOffset: 48, is64Bit: true)
        static let narrow = Layout(
            headerSize: 28, segmentCommand: 0x1, segmentName: "LC_SEGMENT", segmentHeaderSize: 56,
            sectionCountOffset: 48, sectionSize: 68, sectionSizeOffset: 36, sectionFileOffsetOffset: 40, is64Bit: false)
    }

    /// The name `lipo -info` prints for a CPU type and subtype.
    static func architecture(cpuType: UInt32, subtype: UInt32) -> String {
        switch cpuType {
        case 0x0100_0007: return "x86_64"
        case 0x0100_000c: return subtype & 0xff == 2 ? "arm64e" : "arm64"
        case 0x0200_000c: return "arm64_32"
        case 7: return "i386"
        case 12:
            let names: [UInt32: String] = [6: "armv6", 9: "armv7", 10: "armv7f", 11: "armv7s", 12: "armv7k", 13: "armv8"]
            return names[subtype & 0xff] ?? "arm"
        default: return "cputype \(String.hex(cpuType))"
        }
    }

    /// Parses one thin image whose bytes `reader` holds.
    static func read(_ reader: ByteReader) throws(EntitlementsError) -> MachOSlice {
        let file = reader.file
        guard reader.count >= 4 else { throw reader.truncated("Mach-O magic", offset: 0, count: 4) }
        let magic = try reader.u32("Mach-O magic", at: 0, bigEndian: false)
        let layout: Layout
        switch magic {
        case magic64: layout = .wide
        case magic32: layout = .narrow
        case 0xcffa_edfe, 0xcefa_edfe:
            throw EntitlementsError(file, "big-endian Mach-O (PowerPC) is not supported")
        default:
            throw EntitlementsError(
                file, "wrong magic \(String.hex(magic)) at offset \(String.hex(reader.base)): not a Mach-O image")
        }
        let cpuType = try reader.u32("cputype", at: 4, bigEndian: false)
        let cpuSubtype = try reader.u32("cpusubtype", at: 8, bigEndian: false)
        let fileType = try reader.u32("filetype", at: 12, bigEndian: false)
        let commandCount = try reader.int(try reader.u32("ncmds", at: 16, bigEndian: false), "ncmds")
        let commandsSize = try reader.int(try reader.u32("sizeofcmds", at: 20, bigEndian: false), "sizeofcmds")
        let headerSize = layout.headerSize
        guard reader.contains(offset: headerSize, count: commandsSize) else {
            throw reader.truncated("load commands (sizeofcmds \(commandsSize))", offset: headerSize, count: commandsSize)
        }
        guard commandCount <= commandsSize / 8 else {
            throw EntitlementsError(file, "ncmds \(commandCount) cannot fit in sizeofcmds \(commandsSize)")
        }
        var section: SectionContents = .absent
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
            case layout.segmentCommand:
                let found = try entitlementsSection(reader, layout: layout, command: offset, size: size)
                if case .absent = found {} else { section = found }
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
        var plist: [UInt8]?
        if case .contents(let bytes) = section { plist = bytes }
        return MachOSlice(
            architecture: architecture(cpuType: cpuType, subtype: cpuSubtype), is64Bit: layout.is64Bit,
            isDebugCompanion: fileType == fileTypeDebugCompanion, sectionPlist: plist,
            sectionWithoutContents: section == .headerOnly, signaturePlist: signature, isSigned: signed)
    }

    /// What a segment command says about `__TEXT,__entitlements`.
    enum SectionContents: Equatable {
        /// The segment has no such section.
        case absent
        /// The section header is there but its bytes are not in the file.
        case headerOnly
        /// The section's bytes, trailing NULs removed.
        case contents([UInt8])
    }

    /// `__TEXT,__entitlements` if this segment command holds it (object files keep every section in one unnamed
    /// segment, so the section's own segment name is what counts).
    static func entitlementsSection(
        _ reader: ByteReader, layout: Layout, command: Int, size: Int
    ) throws(EntitlementsError) -> SectionContents {
        guard size >= layout.segmentHeaderSize else {
            throw EntitlementsError(
                reader.file, "\(layout.segmentName) is \(size) bytes, expected at least \(layout.segmentHeaderSize)")
        }
        let sectionCount = try reader.int(
            try reader.u32("nsects", at: command + layout.sectionCountOffset, bigEndian: false), "nsects")
        let room = (size - layout.segmentHeaderSize) / layout.sectionSize
        guard sectionCount <= room else {
            throw EntitlementsError(
                reader.file,
                "\(layout.segmentName) at offset \(String.hex(reader.base + command)) "
                    + "claims \(sectionCount) sections but has room for \(room)")
        }
        for index in 0..<sectionCount {
            let header = command + layout.segmentHeaderSize + index * layout.sectionSize
            let name = try reader.fixedString("section name", at: header, count: 16)
            let segment = try reader.fixedString("segment name", at: header + 16, count: 16)
            guard name == "__entitlements", segment == "__TEXT" else { continue }
            let sizeAt = header + layout.sectionSizeOffset
            let rawLength: UInt64 =
                layout.is64Bit
                ? try reader.u64("__entitlements size", at: sizeAt, bigEndian: false)
                : UInt64(try reader.u32("__entitlements size", at: sizeAt, bigEndian: false))
            let length = try reader.int(rawLength, "section size")
            let fileOffset = try reader.int(
                try reader.u32("__entitlements offset", at: header + layout.sectionFileOffsetOffset, bigEndian: false),
                "section offset")
            // flags sit two words after the file offset; their low byte is the section type.
            let flags = try reader.u32("__entitlements flags", at: header + layout.sectionFileOffsetOffset + 16, bigEndian: false)
            let zeroFill: Set<UInt32> = [0x1, 0xc, 0x12]
            // Offset 0 is the Mach-O header itself: a dSYM companion keeps the header of a section whose bytes
            // stayed in the executable.
            guard fileOffset != 0, length != 0, !zeroFill.contains(flags & 0xff) else { return .headerOnly }
            var bytes = try reader.range("__TEXT,__entitlements contents", offset: fileOffset, count: length)
            while bytes.last == 0 { bytes.removeLast() }
            return .contents(bytes)
        }
        return .absent
    }
}
