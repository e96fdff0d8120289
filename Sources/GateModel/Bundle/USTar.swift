import Foundation

/// The POSIX ustar archive format (IEEE Std 1003.1, "pax" section, ustar interchange format), the
/// subset a run bundle needs: regular files and folders, written with fixed owners and times so
/// that the same entries always give the same bytes, and read back with every header checked.
///
/// Each entry is a 512-byte header (octal numbers, a checksum of the header's bytes) followed by
/// the content padded to 512 bytes; two zero blocks end the archive.
enum USTar {
    /// One archive member.
    struct Entry: Equatable {
        enum Kind: Equatable { case file, folder }
        /// The path inside the archive, `/`-separated, without a trailing slash.
        var path: String
        var kind: Kind
        /// Permission bits: 0755 for folders and executables, 0644 for other files.
        var mode: Int
        /// The content of a file (empty for a folder).
        var data: Data
    }

    static let blockSize = 512
    /// Every entry's modification time: 2000-01-01T00:00:00Z (a fixed time, not the clock; not the
    /// epoch itself, which some tar programs warn about).
    static let fixedTime = 946_684_800
    /// Every entry's owner: uid and gid 0, named root.
    static let ownerName = "root"

    /// Why an archive cannot be written or read; the caller names the file.
    struct Failure: Error {
        var reason: String
    }

    /// The archive of `entries`, in the order given.
    /// - Throws: ``Failure`` for a path that ustar cannot hold (longer than its 100 + 155 bytes).
    static func write(_ entries: [Entry]) throws(Failure) -> Data {
        var out = Data()
        for entry in entries {
            out.append(try header(path: entry.path, kind: entry.kind, mode: entry.mode, size: entry.data.count))
            if entry.kind == .file {
                out.append(entry.data)
                out.append(Data(count: padding(entry.data.count)))
            }
        }
        out.append(end)
        return out
    }

    /// The two zero blocks that end an archive.
    static var end: Data { Data(count: 2 * blockSize) }

    /// The zero bytes after a file of `size` bytes that fill its last block.
    static func padding(_ size: Int) -> Int { (blockSize - size % blockSize) % blockSize }

    /// The header block of one member (a folder's `size` is 0).
    /// - Throws: ``Failure`` for a path that ustar cannot hold (longer than its 100 + 155 bytes).
    static func header(path: String, kind: Entry.Kind, mode: Int, size: Int) throws(Failure) -> Data {
        let (prefix, name) = try split(kind == .folder ? path + "/" : path)
        var block = [UInt8](repeating: 0, count: blockSize)
        func put(_ text: String, at offset: Int, width: Int) {
            for (index, byte) in text.utf8.prefix(width).enumerated() { block[offset + index] = byte }
        }
        func octal(_ value: Int, at offset: Int, width: Int) {
            let digits = String(value, radix: 8)
            put(String(repeating: "0", count: width - 1 - digits.count) + digits, at: offset, width: width - 1)
        }
        put(name, at: 0, width: 100)
        octal(mode, at: 100, width: 8)
        octal(0, at: 108, width: 8)
        octal(0, at: 116, width: 8)
        octal(kind == .file ? size : 0, at: 124, width: 12)
        octal(fixedTime, at: 136, width: 12)
        block[156] = kind == .file ? UInt8(ascii: "0") : UInt8(ascii: "5")
        put("ustar\0", at: 257, width: 6)
        put("00", at: 263, width: 2)
        put(ownerName, at: 265, width: 32)
        put(ownerName, at: 297, width: 32)
        octal(0, at: 329, width: 8)
        octal(0, at: 337, width: 8)
        put(prefix, at: 345, width: 155)
        // The checksum is the sum of the header's bytes with its own field read as eight spaces.
        put("        ", at: 148, width: 8)
        let sum = block.reduce(0) { $0 + Int($1) }
        let digits = String(sum, radix: 8)
        put(String(repeating: "0", count: 6 - digits.count) + digits + "\0 ", at: 148, width: 8)
        return Data(block)
    }

    /// Splits `path` into ustar's prefix (up to 155 bytes) and name (up to 100) at a slash.
    private static func split(_ path: String) throws(Failure) -> (String, String) {
        let bytes = Array(path.utf8)
        if bytes.count <= 100 { return ("", path) }
        for index in bytes.indices.reversed() where bytes[index] == UInt8(ascii: "/") {
            if index <= 155 && bytes.count - index - 1 <= 100 && index < bytes.count - 1 {
                return (String(decoding: bytes[..<index], as: UTF8.self), String(decoding: bytes[(index + 1)...], as: UTF8.self))
            }
        }
        throw Failure(reason: "path \(path) is too long for a ustar archive")
    }

    /// One member's header as read: its content (`size` bytes, then padding) follows.
    struct Header: Equatable {
        var path: String
        var kind: Entry.Kind
        var mode: Int
        var size: Int
    }

    /// The header in `block` (512 bytes), the archive's `index`th entry, or nil for a zero block (the end).
    /// - Throws: ``Failure`` for a damaged header or an entry that is not a regular file or a folder.
    static func parse(_ block: [UInt8], entry index: Int) throws(Failure) -> Header? {
        guard block.count == blockSize else { throw Failure(reason: "is truncated: the archive ends inside entry \(index)") }
        if block.allSatisfy({ $0 == 0 }) { return nil }
        func text(_ start: Int, _ width: Int) -> String {
            String(decoding: block[start..<(start + width)].prefix { $0 != 0 }, as: UTF8.self)
        }
        func number(_ start: Int, _ width: Int) -> Int? {
            let digits = text(start, width).trimmingCharacters(in: .whitespaces)
            return digits.isEmpty ? nil : Int(digits, radix: 8)
        }
        var sum = 0
        for (index, byte) in block.enumerated() { sum += (148..<156).contains(index) ? 32 : Int(byte) }
        guard text(257, 6).hasPrefix("ustar"), let recorded = number(148, 8), recorded == sum else {
            throw Failure(reason: "is damaged: the header of entry \(index) is not a valid ustar header")
        }
        let prefix = text(345, 155)
        var path = prefix.isEmpty ? text(0, 100) : prefix + "/" + text(0, 100)
        guard let size = number(124, 12), let mode = number(100, 8), size >= 0 else {
            throw Failure(reason: "is damaged: entry \(path) has no size or mode")
        }
        let type = block[156]
        let kind: Entry.Kind
        switch type {
        case 0, UInt8(ascii: "0"): kind = .file
        case UInt8(ascii: "5"): kind = .folder
        default:
            throw Failure(
                reason:
                    "holds \(path), an entry of type \(Character(Unicode.Scalar(type))) (a bundle holds only files and folders)")
        }
        if path.hasSuffix("/") { path.removeLast() }
        return Header(path: path, kind: kind, mode: mode & 0o777, size: kind == .file ? size : 0)
    }

    /// The entries of `data`, every header's checksum and format checked.
    /// - Throws: ``Failure`` for a truncated archive, a damaged header, or an entry that is not a
    ///   regular file or a folder (links, devices: a bundle holds neither).
    static func read(_ data: Data) throws(Failure) -> [Entry] {
        let bytes = [UInt8](data)
        var entries: [Entry] = []
        var offset = 0
        while true {
            let block = Array(bytes[min(offset, bytes.count)..<min(offset + blockSize, bytes.count)])
            guard let header = try parse(block, entry: entries.count + 1) else { break }
            offset += blockSize
            guard offset + header.size <= bytes.count else {
                throw Failure(reason: "is truncated: the archive ends inside \(header.path)")
            }
            entries.append(
                Entry(path: header.path, kind: header.kind, mode: header.mode, data: Data(bytes[offset..<(offset + header.size)]))
            )
            offset += header.size + padding(header.size)
        }
        return entries
    }
}
