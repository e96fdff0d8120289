internal import CSHA256
import Foundation

/// SHA-256 (FIPS 180-4), for pinning build executables and entitlements by content.
///
/// CryptoKit is not available on Linux and the package takes no dependencies, so this is a small,
/// self-contained implementation; it is checked against the FIPS test vectors.
public struct SHA256: Sendable {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// A fresh hash.
    public init() { pending.reserveCapacity(64) }

    /// Feeds `bytes` into the hash.
    public mutating func update<Bytes: DataProtocol>(_ bytes: Bytes) {
        for region in bytes.regions {
            region.withUnsafeBytes { update(UnsafeRawBufferPointer($0)) }
        }
    }

    private mutating func update(_ buffer: UnsafeRawBufferPointer) {
        length &+= UInt64(buffer.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, buffer.count)
            pending.append(contentsOf: buffer[0..<take])
            offset = take
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compressBlocks($0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (buffer.count - offset) / 64 * 64
        if whole > 0 {
            compressBlocks(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + whole]))
            offset += whole
        }
        pending.append(contentsOf: buffer[offset...])
    }

    /// The 32-byte digest of everything fed so far.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        let padding = (64 + 56 - (pending.count + 1) % 64) % 64
        tail.append(contentsOf: repeatElement(0, count: padding))
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        copy.update(tail)
        copy.length = length
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in copy.state {
            digest.append(contentsOf: [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ])
        }
        return digest
    }

    /// The digest of `bytes`.
    public static func hash<Bytes: DataProtocol>(_ bytes: Bytes) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// The lower-case hex digest of the file at `path`, read in chunks; nil when it cannot be read.
    ///
    /// Digests are remembered for the life of the process by the file's identity and state (device,
    /// inode, size, modification time to the nanosecond): a gate installs the same few executables
    /// hundreds of times, and a file that changes gets a new modification time.
    public static func hexOfFile(atPath path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let key = FileIdentity(info)
        if let known = FileDigests.shared.digest(for: key) { return known }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(chunk) }
        let digest = hasher.finalize().hexDigits
        FileDigests.shared.remember(digest, for: key)
        return digest
    }

    /// Copies the file at `source` to a new file at `destination` (``FileCopy``) and remembers the
    /// source's digest for the copy as ``hexOfFile(atPath:)`` would: a run that stages a build's
    /// executable it has just pinned reads it no second time, neither to copy nor to digest it.
    /// Returns the digest; nil (and no copy left) when the copy fails or the path no longer names
    /// the file that was copied.
    public static func copyFile(from source: String, to destination: String) -> String? {
        guard let (original, copy) = FileCopy.copy(from: source, to: destination) else { return nil }
        // The digest by path is the copied file's only if the path still names that file.
        guard let digest = hexOfFile(atPath: source), FileIdentity(path: source) == FileIdentity(original) else {
            unlink(destination)
            errno = ESTALE
            return nil
        }
        FileDigests.shared.remember(digest, for: FileIdentity(copy))
        return digest
    }

    /// Runs the block function over every whole 64-byte block of `blocks` (C, see CSHA256).
    private mutating func compressBlocks(_ blocks: UnsafeRawBufferPointer) {
        guard let base = blocks.baseAddress, blocks.count >= 64 else { return }
        state.withUnsafeMutableBufferPointer { words in
            csha256_compress_blocks(words.baseAddress!, base.assumingMemoryBound(to: UInt8.self), blocks.count / 64)
        }
    }
}

/// HMAC-SHA256 (RFC 2104), for keyed digests that let two dumps be compared without showing a value.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key` (in C: a snapshot takes one per
    /// stored value, and Swift's generic byte loops at -Onone cost more than the digest itself).
    public static func authenticationCode<Key: DataProtocol, Message: DataProtocol>(for message: Message, key: Key) -> [UInt8] {
        let key = Array(key), message = Array(message)
        var code = [UInt8](repeating: 0, count: 32)
        code.withUnsafeMutableBufferPointer { out in
            csha256_hmac(key, key.count, message, message.count, out.baseAddress!)
        }
        return code
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lower-case hex.
    public var hexDigits: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in self { out.append(digits[Int(byte >> 4)]); out.append(digits[Int(byte & 0xF)]) }
        return String(decoding: out, as: UTF8.self)
    }
}

/// A file's identity and state, as far as digests and copies of it are concerned: its device,
/// inode, size and modification time to the nanosecond. A file that changes gets a new one.
public struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    /// The identity `stat` gave.
    public init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
    }

    /// The identity of the file at `path` now (following links), or nil when it cannot be read.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }
}

/// The process's remembered file digests.
private final class FileDigests: @unchecked Sendable {
    static let shared = FileDigests()
    private let lock = NSLock()
    private var digests: [FileIdentity: String] = [:]

    func digest(for key: FileIdentity) -> String? { lock.withLock { digests[key] } }
    func remember(_ digest: String, for key: FileIdentity) { lock.withLock { digests[key] = digest } }
}
