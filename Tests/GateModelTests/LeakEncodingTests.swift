import Foundation
@testable import GateModel
import TestSupport
import Testing

/// The leak scan sees what an app writes without effort beyond the plain encodings: any text as
/// UTF-16 or UTF-32 (`String.data(using:)`), base32, a value wrapped across lines, and a gzip or
/// zlib file, inflated within a bound.
@Suite struct LeakEncodingTests {
    static let token = Secret(label: "authToken", value: Data("tok-3f9aQX7zAb12Cd34Ef56Gh78Ij90".utf8))
    static let other = Secret(label: "refreshToken", value: Data("rf-0000111122223333444455556666".utf8))

    static func scan(_ file: Data) throws -> [SecretLeak] {
        let directory = try TemporaryDirectory("leak-encodings")
        try file.write(to: URL(fileURLWithPath: directory.file("app.log")))
        return try SecretScanner.scan(directory: directory.path, secrets: [other, token]).leaks
    }

    /// RFC 4648 base32 of `bytes`, as a tool writes it (upper-case, `=` padded).
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var text = "", buffer = 0, bits = 0
        for byte in bytes {
            buffer = buffer << 8 | Int(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text + String(repeating: "=", count: (8 - text.count % 8) % 8)
    }

    /// A zlib stream (RFC 1950) of `bytes`: the deflate data of their gzip member (a 10-byte header
    /// with no name, an 8-byte trailer) between a zlib header and the Adler-32.
    static func zlib(_ bytes: [UInt8]) throws -> Data {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let member = [UInt8](try gzip(Data(bytes)))
        let adler = b << 16 | a
        return Data(
            [0x78, 0x01] + member[10..<(member.count - 8)]
                + [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)])
    }

    /// `file` gzip'd as a tool writes it.
    static func gzip(_ file: Data) throws -> Data {
        let directory = try TemporaryDirectory("leak-gzip")
        let path = directory.file("x.gz")
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let writer = Gzip.Writer(descriptor: descriptor, path: path)
        try writer.write(file)
        try writer.finish()
        close(descriptor)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// ByteSearch (memmem, for where a secret is on a device) answers as `Data.range(of:)` does.
    @Test func byteSearchAnswersAsRange() {
        let text = Data("xx\u{0}tok-3f9a\u{0}yy-tok".utf8)
        for form in ["tok-3f9a", "tok", "-tok", "yy-tok!", "xx\u{0}t", "\u{0}", "zz", "", String(repeating: "x", count: 40)] {
            let bytes = Data(form.utf8)
            #expect(ByteSearch.holds(text, bytes) == (text.range(of: bytes) != nil), "\(form)")
            #expect(ByteSearch.holds(Data(), bytes) == (Data().range(of: bytes) != nil), "\(form)")
            #expect(ByteSearch.holds(text.dropFirst(3), bytes) == (text.dropFirst(3).range(of: bytes) != nil), "\(form)")
        }
    }

    /// The wide and URL forms the patterns are built from are what Foundation and RFC 3986 write
    /// (the loops that make them replaced `flatMap`s of per-character arrays).
    @Test func patternFormsAreTheEncodersOwn() {
        let text = "p\u{e4}ssw\u{f6}rd-\u{1F511}-tok"
        let patterns = SecretPatterns.encodings(of: Data(text.utf8))
        let expected: [(SecretEncoding, Data?)] = [
            (.utf16, text.data(using: .utf16BigEndian)), (.utf16, text.data(using: .utf16LittleEndian)),
            (.utf32, text.data(using: .utf32BigEndian)), (.utf32, text.data(using: .utf32LittleEndian)),
        ]
        for (encoding, data) in expected {
            let bytes = [UInt8](data ?? Data())
            #expect(!bytes.isEmpty && patterns.contains { $0.0 == encoding && $0.1 == bytes })
        }
        #expect(SecretPatterns.urlSafe("a+b/c+/==") == "a-b_c-_")
        #expect(SecretPatterns.percentEncoded(Array("a b~\u{e4}".utf8)) == Array("a%20b~%C3%A4".utf8))
    }

    @Test("an ASCII token written as UTF-16 or UTF-32, either byte order, with a byte-order mark, is a leak")
    func wideText() throws {
        let text = String(decoding: Self.token.value, as: UTF8.self)
        for encoding: String.Encoding in [.utf16, .utf16BigEndian, .utf16LittleEndian] {
            let leaks = try Self.scan(Data("log: ".utf8) + text.data(using: encoding)!)
            #expect(leaks.map(\.encoding) == [.utf16], "\(encoding)")
            #expect(leaks.map(\.secretLabel) == ["authToken"])
        }
        for encoding: String.Encoding in [.utf32, .utf32BigEndian, .utf32LittleEndian] {
            #expect(try Self.scan(text.data(using: encoding)!).map(\.encoding) == [.utf32], "\(encoding)")
        }
    }

    @Test(
        "base32 of a token, upper- or lower-case, alone or inside a longer base32 text, is a leak", arguments: [0, 1, 2, 3, 4, 7])
    func base32(prefix: Int) throws {
        let bytes = [UInt8](repeating: 0x41, count: prefix) + [UInt8](Self.token.value) + [0x42, 0x43]
        #expect(try Self.scan(Data("otp=\(Self.base32(bytes))".utf8)).map(\.encoding) == [.base32])
        #expect(try Self.scan(Data("otp=\(Self.base32(bytes).lowercased())".utf8)).map(\.encoding) == [.base32])
    }

    @Test("a token wrapped across lines (base64 at 64 columns, hex in pieces, CRLF) is a leak")
    func splitAcrossLines() throws {
        let long = Data(repeating: 0x5A, count: 40) + Self.token.value
        let wrapped = long.base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        #expect(try Self.scan(Data(wrapped.utf8)).map(\.encoding) == [.splitAcrossLines])
        let text = String(decoding: Self.token.value, as: UTF8.self)
        let pieces = "token part 1: \(text.prefix(10))\r\n\(text.dropFirst(10))\r\n"
        #expect(try Self.scan(Data(pieces.utf8)).map(\.encoding) == [.splitAcrossLines])
    }

    @Test("a gzip'd or zlib'd log holding a token is a leak; a clean one is not")
    func compressed() throws {
        let log = Data("2026-12-05 session restored with ".utf8) + Self.token.value + Data(" ok\n".utf8)
        #expect(try Self.scan(try Self.gzip(log)).map(\.encoding) == [.compressed])
        #expect(try Self.scan(try Self.zlib([UInt8](log))).map(\.encoding) == [.compressed])
        // Two gzip members one after the other (`cat a.gz b.gz`): the second is read too.
        let twoMembers = try Self.gzip(Data("nothing\n".utf8)) + Self.gzip(log)
        #expect(try Self.scan(twoMembers).map(\.encoding) == [.compressed])
        #expect(try Self.scan(try Self.gzip(Data("nothing to see\n".utf8))).isEmpty)
    }

    @Test("a stream that inflates past the bound stops there and is reported as not vouched for")
    func bomb() throws {
        let zeros = try Self.gzip(Data(repeating: 0, count: 4 << 20))
        #expect(zeros.count < 64 << 10)
        let bounded = try #require(CompressedStream.inflate(zeros, limit: 1 << 20))
        #expect(bounded.truncated)
        #expect(bounded.bytes.count == 1 << 20)
        let whole = try #require(CompressedStream.inflate(zeros, limit: 8 << 20))
        #expect(!whole.truncated)
        #expect(whole.bytes.count == 4 << 20)
        #expect(CompressedStream.inflate(Data("Hj plain text".utf8), limit: 1 << 20) == nil)
    }
}
