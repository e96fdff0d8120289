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
            let slice = ByteReader(Array(reader.bytes[offset..<(offset + size)]), file: file, base: offset)
            slices.append(try MachOImage.read(slice))
        }
        return MachOFile(slices: slices)
    }

    /// The entitlements this file carries: each slice's section first, then its signature blob; a note for every
    /// slice that disagrees with the first, or whose signature disagrees with its section beyond `get-task-allow`.
    public func entitlements(
        file: String
    ) throws(EntitlementsError) -> (entitlements: Entitlements, origin: String, warnings: [String]) {
        var chosen: [(architecture: String, entitlements: Entitlements, origin: String)] = []
        var warnings: [String] = []
        for slice in slices {
            var section: Entitlements?
            var signature: Entitlements?
            if let bytes = slice.sectionPlist {
                section = Entitlements(try Self.plist(bytes, file: file, place: "\(slice.architecture) __TEXT,__entitlements"))
            }
            if let bytes = slice.signaturePlist {
                signature = Entitlements(try Self.plist(bytes, file: file, place: "\(slice.architecture) code signature"))
            }
            if let section, let signature {
                var a = section.values, b = signature.values
                a["get-task-allow"] = nil
                b["get-task-allow"] = nil
                if !b.isEmpty, a != b {
                    warnings.append(
                        "\(file): \(slice.architecture) code signature entitlements differ from its __TEXT,__entitlements "
                            + "section; the section is used")
                }
            }
            if let section {
                chosen.append((slice.architecture, section, "\(slice.architecture) __TEXT,__entitlements"))
            } else if let signature {
                chosen.append((slice.architecture, signature, "\(slice.architecture) code signature"))
            } else {
                chosen.append((slice.architecture, Entitlements([:]), "\(slice.architecture): none"))
            }
        }
        guard let first = chosen.first else { throw EntitlementsError(file, "no architectures") }
        for other in chosen.dropFirst() where other.entitlements != first.entitlements {
            warnings.append(
                "\(file): \(other.architecture) entitlements differ from \(first.architecture)'s; "
                    + "\(first.architecture)'s are used")
        }
        if chosen.allSatisfy({ $0.entitlements.values.isEmpty }) {
            warnings.append(
                "\(file): no entitlements in a __TEXT,__entitlements section or a code signature; "
                    + "its keychain calls would answer errSecMissingEntitlement (-34018)")
        }
        return (first.entitlements, chosen.map(\.origin).joined(separator: ", "), warnings)
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
