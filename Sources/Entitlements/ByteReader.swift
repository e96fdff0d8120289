/// Bounds-checked reads of integers and ranges from untrusted bytes; every miss is a typed error, never a trap.
struct ByteReader: Sendable {
    let bytes: [UInt8]
    /// The file named in errors.
    let file: String
    /// Added to offsets in messages, so a slice of a universal file reports file offsets.
    let base: Int

    init(_ bytes: [UInt8], file: String, base: Int = 0) {
        self.bytes = bytes
        self.file = file
        self.base = base
    }

    var count: Int { bytes.count }

    /// Whether `count` bytes starting at `offset` lie inside the buffer (overflow-safe).
    func contains(offset: Int, count: Int) -> Bool {
        offset >= 0 && count >= 0 && offset <= bytes.count && count <= bytes.count - offset
    }

    func truncated(_ what: String, offset: Int, count: Int) -> EntitlementsError {
        EntitlementsError(
            file,
            "truncated: \(what) at offset \(String.hex(base + offset)) needs \(count) bytes, "
                + "but only \(max(0, bytes.count - max(0, offset))) remain")
    }

    /// The `count` bytes at `offset`.
    func range(_ what: String, offset: Int, count: Int) throws(EntitlementsError) -> [UInt8] {
        guard contains(offset: offset, count: count) else { throw truncated(what, offset: offset, count: count) }
        return Array(bytes[offset..<(offset + count)])
    }

    /// The 32-bit unsigned integer at `offset`.
    func u32(_ what: String, at offset: Int, bigEndian: Bool) throws(EntitlementsError) -> UInt32 {
        try unsigned(what, at: offset, bigEndian: bigEndian)
    }

    /// The 64-bit unsigned integer at `offset`.
    func u64(_ what: String, at offset: Int, bigEndian: Bool) throws(EntitlementsError) -> UInt64 {
        try unsigned(what, at: offset, bigEndian: bigEndian)
    }

    private func unsigned<T: FixedWidthInteger & UnsignedInteger>(
        _ what: String, at offset: Int, bigEndian: Bool
    ) throws(EntitlementsError) -> T {
        let size = MemoryLayout<T>.size
        guard contains(offset: offset, count: size) else { throw truncated(what, offset: offset, count: size) }
        var value: T = 0
        for index in 0..<size {
            value = value << 8 | T(bytes[offset + (bigEndian ? index : size - 1 - index)])
        }
        return value
    }

    /// A fixed-size, NUL-padded name such as a Mach-O segment or section name.
    func fixedString(_ what: String, at offset: Int, count: Int) throws(EntitlementsError) -> String {
        let raw = try range(what, offset: offset, count: count)
        let trimmed = raw.prefix { $0 != 0 }
        return String(decoding: trimmed, as: UTF8.self)
    }

    /// Converts an untrusted unsigned size or offset to `Int`, rejecting values no buffer could hold.
    func int<T: UnsignedInteger>(_ value: T, _ what: String) throws(EntitlementsError) -> Int {
        guard value <= UInt64(Int32.max) else {
            throw EntitlementsError(file, "\(what) \(String.hex(value)) is out of range")
        }
        return Int(value)
    }
}
