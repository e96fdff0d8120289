import Foundation

/// The gzip container (RFC 1952) around deflate's stored blocks (RFC 1951 section 3.2.4): valid gzip
/// that `gunzip` and `tar xzf` read, written and read with nothing but this file.
///
/// Why stored and not compressed: the runner links only the toolchain and the system's SQLite
/// (Foundation on Linux has no compression API, and zlib is not a dependency), so the bytes are
/// framed, not deflated. The gzip layer still carries a CRC-32 and the length, so a truncated or
/// damaged bundle is refused before anything is unpacked. Measured on a default gate's bundle, gzip
/// -9 would save about two thirds of the size (almost all of it the executables); see the README.
enum StoredGzip {
    /// The longest stored block deflate allows.
    static let maximumBlock = 65_535

    /// Why a stream cannot be read; the caller names the file.
    struct Failure: Error {
        var reason: String
    }

    /// `data` as a gzip member of stored blocks, with no name and no time (the same bytes for the same data).
    static func wrap(_ data: Data) -> Data {
        var out = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF])
        out.reserveCapacity(data.count + data.count / maximumBlock * 5 + 32)
        var start = data.startIndex
        repeat {
            let end = min(start + maximumBlock, data.endIndex)
            let length = UInt16(end - start)
            out.append(end == data.endIndex ? 0x01 : 0x00)
            appendLittleEndian(UInt32(length) | UInt32(~length) << 16, to: &out)
            out.append(data[start..<end])
            start = end
        } while start < data.endIndex
        appendLittleEndian(CRC32.checksum(data), to: &out)
        appendLittleEndian(UInt32(truncatingIfNeeded: data.count), to: &out)
        return out
    }

    /// The content of a gzip stream of stored blocks, its CRC-32 and length checked.
    /// - Throws: ``Failure`` for a file that is not gzip, is truncated or damaged, or holds deflate
    ///   blocks that are compressed (this runner writes and reads only stored ones).
    static func unwrap(_ gzip: Data) throws(Failure) -> Data {
        let bytes = [UInt8](gzip)
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 0x08 else {
            throw Failure(reason: "is not a gzip file (a bundle is made by upgrade-runner bundle)")
        }
        let flags = bytes[3]
        var offset = 10
        func need(_ count: Int) throws(Failure) {
            guard offset + count <= bytes.count else { throw Failure(reason: "is truncated: the gzip stream ends early") }
        }
        if flags & 0x04 != 0 {  // FEXTRA
            try need(2)
            offset += 2 + Int(bytes[offset]) + Int(bytes[offset + 1]) << 8
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {  // FNAME, FCOMMENT: zero-terminated
            while true {
                try need(1)
                offset += 1
                if bytes[offset - 1] == 0 { break }
            }
        }
        if flags & 0x02 != 0 { offset += 2 }  // FHCRC
        var out = Data()
        out.reserveCapacity(bytes.count)
        while true {
            try need(5)
            let header = bytes[offset]
            guard header >> 1 & 0x03 == 0 else {
                throw Failure(
                    reason:
                        "holds compressed deflate blocks; this runner reads the stored blocks of its own bundles (make it with upgrade-runner bundle)"
                )
            }
            let length = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8
            let complement = Int(bytes[offset + 3]) | Int(bytes[offset + 4]) << 8
            guard length ^ complement == 0xFFFF else { throw Failure(reason: "is damaged: a stored block's length is corrupt") }
            offset += 5
            try need(length)
            out.append(contentsOf: bytes[offset..<(offset + length)])
            offset += length
            if header & 0x01 != 0 { break }
        }
        try need(8)
        let crc = readLittleEndian(bytes, at: offset)
        let size = readLittleEndian(bytes, at: offset + 4)
        guard crc == CRC32.checksum(out), size == UInt32(truncatingIfNeeded: out.count) else {
            throw Failure(reason: "is damaged: its CRC-32 or length does not match its content")
        }
        guard offset + 8 == bytes.count else {
            throw Failure(reason: "has \(bytes.count - offset - 8) bytes after the end of its gzip stream")
        }
        return out
    }

    private static func appendLittleEndian(_ value: UInt32, to data: inout Data) {
        for shift in stride(from: 0, to: 32, by: 8) { data.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    private static func readLittleEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << UInt32(8 * $1) }
    }
}

/// CRC-32 as gzip and zip use it (IEEE 802.3 polynomial, reflected, 0xEDB88320).
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        data.withUnsafeBytes { buffer in
            for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}
