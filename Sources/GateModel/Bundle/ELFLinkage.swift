import FileUtility
import Foundation

/// The shared libraries an ELF executable names (`DT_NEEDED`), read from its program headers and
/// dynamic section: enough for `bundle` to tell a statically linked app build from one that loads
/// the toolchain's Swift runtime at launch, which a bundle does not carry.
///
/// Only 64-bit little-endian ELF is read (x86_64 and aarch64 Linux, where the runner runs); any other
/// file answers no libraries, and its launch is preflight's business, not the bundle's.
package enum ELFLinkage {
    /// The names of the toolchain's runtime libraries (`libswiftCore.so`, `libFoundation.so`, ...):
    /// what a Swift app build linked without `-static-stdlib` loads from the toolchain at launch.
    package static func isSwiftRuntime(_ library: String) -> Bool {
        [
            "libswift", "libFoundation", "lib_Foundation", "libdispatch", "libBlocksRuntime", "libXCTest", "lib_Testing",
            "libTesting",
        ]
        .contains { library.hasPrefix($0) }
    }

    /// The `DT_NEEDED` names of the executable at `path`, in file order; empty for a static executable
    /// or a file that is not 64-bit little-endian ELF.
    /// - Throws: ``GateError/unreadable(path:reason:)`` when the file cannot be read.
    package static func neededLibraries(ofFileAt path: String) throws(GateError) -> [String] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) } catch {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        return neededLibraries(in: data)
    }

    /// The `DT_NEEDED` names in the ELF image `data`.
    static func neededLibraries(in data: Data) -> [String] {
        data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> [String] in
            func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T? {
                guard offset >= 0, offset + MemoryLayout<T>.size <= bytes.count else { return nil }
                return T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
            }
            // e_ident: magic, ELFCLASS64 (2), ELFDATA2LSB (1).
            guard bytes.count >= 64, bytes[0] == 0x7F, bytes[1] == 0x45, bytes[2] == 0x4C, bytes[3] == 0x46, bytes[4] == 2,
                bytes[5] == 1, let phoff = integer(0x20, UInt64.self), let phentsize = integer(0x36, UInt16.self),
                let phnum = integer(0x38, UInt16.self), phentsize >= 56
            else { return [] }
            struct Segment { var type: UInt32, offset: UInt64, vaddr: UInt64, filesz: UInt64 }
            var segments: [Segment] = []
            for index in 0..<Int(phnum) {
                let base = Int(clamping: phoff) + index * Int(phentsize)
                guard let type = integer(base, UInt32.self), let offset = integer(base + 8, UInt64.self),
                    let vaddr = integer(base + 16, UInt64.self), let filesz = integer(base + 32, UInt64.self)
                else { return [] }
                segments.append(Segment(type: type, offset: offset, vaddr: vaddr, filesz: filesz))
            }
            let ptLoad: UInt32 = 1, ptDynamic: UInt32 = 2
            guard let dynamic = segments.first(where: { $0.type == ptDynamic }) else { return [] }
            // The dynamic entries: (tag, value) pairs of 8 bytes each, up to DT_NULL.
            var needed: [UInt64] = []
            var stringTable: UInt64?
            var offset = Int(clamping: dynamic.offset)
            let end = offset + Int(clamping: dynamic.filesz)
            while offset + 16 <= end, let tag = integer(offset, Int64.self), let value = integer(offset + 8, UInt64.self),
                tag != 0
            {
                if tag == 1 { needed.append(value) }  // DT_NEEDED
                if tag == 5 { stringTable = value }  // DT_STRTAB, an address
                offset += 16
            }
            guard let stringTable,
                let load = segments.first(where: {
                    $0.type == ptLoad && $0.vaddr <= stringTable && stringTable < $0.vaddr &+ $0.filesz
                })
            else { return [] }
            let tableOffset = Int(clamping: load.offset &+ (stringTable - load.vaddr))
            return needed.compactMap { name in
                let start = tableOffset + Int(clamping: name)
                guard start >= 0, start < bytes.count else { return nil }
                var stop = start
                while stop < bytes.count, bytes[stop] != 0 { stop += 1 }
                return String(decoding: bytes[start..<stop], as: UTF8.self)
            }
        }
    }
}
