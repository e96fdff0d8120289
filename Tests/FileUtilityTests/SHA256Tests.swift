import CSHA256
import Foundation
import FileUtility
import TestSupport
import Testing

@Suite struct SHA256Tests {
    @Test(
        "FIPS 180-4 test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func vectors(message: String, digest: String) {
        #expect(SHA256.hash(Data(message.utf8)).hexDigits == digest)
    }

    @Test("the block function gives the portable loop's state, with or without the processor's SHA extensions")
    func blockFunctions() {
        var seed: UInt32 = 2_463_534_242
        let blocks: [UInt8] = (0..<(64 * 1_000)).map { _ in
            seed ^= seed << 13
            seed ^= seed >> 17
            seed ^= seed << 5
            return UInt8(truncatingIfNeeded: seed)
        }
        let initial: [UInt32] = [
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
        ]
        for count in [1, 2, 1_000] {
            var fast = initial
            var portable = initial
            csha256_compress_blocks(&fast, blocks, count)
            csha256_compress_blocks_portable(&portable, blocks, count)
            #expect(fast == portable, "\(count) blocks")
        }
    }

    @Test("a million a's, fed in uneven pieces")
    func million() {
        var hasher = SHA256()
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 999)
        var fed = 0
        while fed < 1_000_000 {
            let piece = chunk.prefix(min(999 - fed % 7, 1_000_000 - fed))
            hasher.update(piece)
            fed += piece.count
        }
        #expect(hasher.finalize().hexDigits == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a file's digest equals the digest of its bytes")
    func file() throws {
        let path = NSTemporaryDirectory() + "/sha256-\(UUID().uuidString)"
        let bytes = Data((0..<5_000).map { UInt8($0 % 251) })
        try bytes.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(SHA256.hexOfFile(atPath: path) == SHA256.hash(bytes).hexDigits)
        #expect(SHA256.hexOfFile(atPath: path + ".missing") == nil)
    }

    @Test("a copy has the source's bytes and mode, its digest returned and remembered; an existing target is left")
    func copy() throws {
        let directory = try TemporaryDirectory("sha256-copy")
        let source = directory.file("source")
        let target = source + ".copy"
        let bytes = Data((0..<(3 << 20) + 17).map { UInt8($0 % 253) })
        try bytes.write(to: URL(fileURLWithPath: source))
        chmod(source, 0o750)
        #expect(SHA256.copyFile(from: source, to: target) == SHA256.hash(bytes).hexDigits)
        #expect(FileManager.default.contents(atPath: target) == bytes)
        var info = stat()
        #expect(stat(target, &info) == 0 && info.st_mode & 0o7777 == 0o750)
        // Remembered, not digested again: other bytes written into the copy in place, its
        // modification time put back, leave its identity as it was, and the answer is the copy's.
        let fd = open(target, O_WRONLY)
        try #require(fd >= 0)
        _ = [UInt8](repeating: 0xAA, count: 64).withUnsafeBytes { pwrite(fd, $0.baseAddress, 64, 0) }
        var times = [info.st_atim, info.st_mtim]
        #expect(futimens(fd, &times) == 0)
        close(fd)
        #expect(SHA256.hexOfFile(atPath: target) == SHA256.hash(bytes).hexDigits, "the digest remembered for the copy")
        try bytes.write(to: URL(fileURLWithPath: target))  // the copy's bytes again, for what follows
        #expect(SHA256.copyFile(from: source, to: target) == nil, "the target exists")
        #expect(FileManager.default.contents(atPath: target) == bytes)
        #expect(SHA256.copyFile(from: source + ".missing", to: source + ".other") == nil)
        #expect(!FileManager.default.fileExists(atPath: source + ".other"))
    }

    @Test("the one-call HMAC equals HMAC over the streaming hash, for every message length around the block edges")
    func hmacMatchesStreaming() {
        func streaming(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
            var block = key.count > 64 ? SHA256.hash(key) : key
            block += [UInt8](repeating: 0, count: 64 - block.count)
            var inner = SHA256()
            inner.update(block.map { $0 ^ 0x36 })
            inner.update(message)
            var outer = SHA256()
            outer.update(block.map { $0 ^ 0x5c })
            outer.update(inner.finalize())
            return outer.finalize()
        }
        for keyLength in [0, 1, 32, 55, 56, 63, 64, 65, 119, 120, 128, 131] {
            let key = (0..<keyLength).map { UInt8(($0 * 7 + 3) % 256) }
            for length in Array(0...140) + [1000, 4097] {
                let message = (0..<length).map { UInt8(($0 * 13 + keyLength) % 256) }
                #expect(
                    HMACSHA256.authenticationCode(for: message, key: key) == streaming(message, key: key),
                    "key \(keyLength), message \(length)")
            }
        }
    }

    @Test("HMAC-SHA256, RFC 4231 test cases 1, 2 and 6")
    func hmac() {
        #expect(
            HMACSHA256.authenticationCode(for: Data("Hi There".utf8), key: Data(repeating: 0x0b, count: 20)).hexDigits
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            HMACSHA256.authenticationCode(for: Data("what do ya want for nothing?".utf8), key: Data("Jefe".utf8)).hexDigits
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(
            HMACSHA256.authenticationCode(
                for: Data("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                key: Data(repeating: 0xaa, count: 131)
            ).hexDigits
                == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }
}
