import Foundation

/// A Mach-O executable, thin or universal, and the entitlements of each of its architectures.
public struct MachOFile: Sendable, Equatable {
    /// One entry per architecture, in the order the file lists them.
    public let slices: [MachOSlice]

    static let fatMagic: UInt32 = 0xcafe_babe
    static let fatMagic64: UInt32 = 0xcafe_babf

    /// Whether `bytes` start with a Mach-O or universal-file magic.
    public static func looksLikeMachO(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        let big = bytes[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return [0xcafe_babe, 0xcafe_babf, 0xcffa_edfe, 0xcefa_edfe, 0xfeed_facf, 0xfeed_face].contains(big)
    }

    /// Parses a thin or universal (FAT_MAGIC or FAT_MAGIC_64) file.
    /// - Throws: on a wrong magic, a truncated header or a slice or signature that lies outside the file.
    public static func read(_ data: Data, file: String) throws(EntitlementsError) -> MachOFile {
        let reader = ByteReader([UInt8](data), file: file)
        let magic = try reader.u32("magic", at: 0, bigEndian: true)
        guard magic == fatMagic || magic == fatMagic64 else {
            return MachOFile(slices: [try MachOImage.read(reader)])
        }
        let wide = magic == fatMagic64
        let count = try reader.int(try reader.u32("nfat_arch", at: 4, bigEndian: true), "nfat_arch")
        // A Java class file shares 0xcafebabe; its version field reads as a count of 45 or more.
        guard count > 0, count < 45 else {
            throw EntitlementsError(file, "universal header claims \(count) architectures: not a universal Mach-O file")
        }
        let entrySize = wide ? 32 : 20
        var slices: [MachOSlice] = []
        for index in 0..<count {
            let entry = 8 + index * entrySize
            let offset: Int
            let size: Int
            if wide {
                offset = try reader.int(try reader.u64("fat_arch_64 offset", at: entry + 8, bigEndian: true), "slice offset")
                size = try reader.int(try reader.u64("fat_arch_64 size", at: entry + 16, bigEndian: true), "slice size")
            } else {
                offset = try reader.int(try reader.u32("fat_arch offset", at: entry + 8, bigEndian: true), "slice offset")
                size = try reader.int(try reader.u32("fat_arch size", at: entry + 12, bigEndian: true), "slice size")
            }
            guard reader.contains(offset: offset, count: size) else {
                throw EntitlementsError(
                    file,
                    "truncated: architecture \(index) at offset \(String.hex(offset)) "
                        + "spans \(size) bytes, beyond the file's \(reader.count)")
            }
            let cpuType = try reader.u32("fat_arch cputype", at: entry, bigEndian: true)
            let cpuSubtype = try reader.u32("fat_arch cpusubtype", at: entry + 4, bigEndian: true)
            let slice = ByteReader(Array(reader.bytes[offset..<(offset + size)]), file: file, base: offset)
            do {
                slices.append(try MachOImage.read(slice))
            } catch {
                // In a universal file the slice is what a reader needs to find the bad bytes.
                let name = MachOImage.architecture(cpuType: cpuType, subtype: cpuSubtype)
                throw EntitlementsError(file, "\(name) slice (architecture \(index)): \(error.problem)")
            }
        }
        return MachOFile(slices: slices)
    }

    /// The plist in a section or blob; errors keep the file and say where in it the bad plist was.
    static func plist(_ bytes: [UInt8], file: String, place: String) throws(EntitlementsError) -> [String: PlistValue] {
        do {
            return try PropertyListReader.dictionary(from: Data(bytes), file: file)
        } catch {
            throw EntitlementsError(file, "\(place): \(error.problem)")
        }
    }
}
