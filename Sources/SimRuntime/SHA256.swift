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
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while buffer.count - offset >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + 64]))
            offset += 64
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
            digest.append(contentsOf: [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                                       UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)])
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

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        @inline(__always) func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 {
                w[i] = UInt32(block[i * 4]) << 24 | UInt32(block[i * 4 + 1]) << 16
                    | UInt32(block[i * 4 + 2]) << 8 | UInt32(block[i * 4 + 3])
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var a = state[0], b = state[1], c = state[2], d = state[3]
            var e = state[4], f = state[5], g = state[6], h = state[7]
            SHA256.k.withUnsafeBufferPointer { k in
                for i in 0..<64 {
                    let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                    let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                    h = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
            }
            state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
            state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
        }
    }
}

/// HMAC-SHA256 (RFC 2104), for keyed digests that let two dumps be compared without showing a value.
public enum HMACSHA256 {
    /// The 32-byte authentication code of `message` under `key`.
    public static func authenticationCode<Key: DataProtocol, Message: DataProtocol>(for message: Message, key: Key) -> [UInt8] {
        var block = key.count > 64 ? SHA256.hash(key) : Array(key)
        block.append(contentsOf: repeatElement(0, count: 64 - block.count))
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
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

/// A file's identity and state, as far as digests are concerned.
private struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
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
