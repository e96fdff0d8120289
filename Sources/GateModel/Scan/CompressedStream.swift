internal import CZlib
import Foundation

/// A file that is a gzip (RFC 1952) or zlib (RFC 1950) stream, inflated in memory for the leak scan:
/// a compressed log or artifact holds a secret its bytes do not show.
enum CompressedStream {
    /// zlib's window bits that take a zlib or a gzip header alike (15-bit window, plus 32).
    private static let automaticHeader: Int32 = 15 + 32

    /// Whether `data` begins as a gzip member (`1f 8b 08`) or a zlib stream (deflate, a valid header check).
    static func isCompressed(_ data: Data) -> Bool {
        guard data.count >= 3 else { return false }
        let first = data[data.startIndex], second = data[data.startIndex + 1]
        if first == 0x1F && second == 0x8B && data[data.startIndex + 2] == 8 { return true }
        return first & 0x0F == 8 && first >> 4 <= 7 && (Int(first) << 8 | Int(second)) % 31 == 0
    }

    /// The bytes of the stream `data` is (and of the gzip members after it), at most `limit` of
    /// them; nil when `data` is no such stream or does not inflate at all. `truncated`: the stream
    /// went on past `limit` (a decompression bomb, or a very large file), so the rest is unread.
    static func inflate(_ data: Data, limit: Int) -> (bytes: Data, truncated: Bool)? {
        guard isCompressed(data) else { return nil }
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer {
            inflateEnd(stream)
            stream.deallocate()
        }
        guard czlib_inflate_init(stream, automaticHeader) == Z_OK else { return nil }
        let chunk = 1 << 16
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: chunk)
        return data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> (bytes: Data, truncated: Bool)? in
            guard let base = input.baseAddress else { return nil }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(input.count)
            while true {
                let result = buffer.withUnsafeMutableBytes { out -> Int32 in
                    stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(chunk)
                    return CZlib.inflate(stream, Z_NO_FLUSH)
                }
                let produced = chunk - Int(stream.pointee.avail_out)
                output.append(contentsOf: buffer.prefix(produced))
                if output.count > limit { return (output.prefix(limit), true) }
                switch result {
                case Z_OK: continue
                case Z_STREAM_END:
                    // Another gzip member may follow (`cat a.gz b.gz`); anything else ends the stream.
                    let left = Int(stream.pointee.avail_in)
                    guard left >= 2, let next = stream.pointee.next_in, next[0] == 0x1F, next[1] == 0x8B,
                        inflateReset(stream) == Z_OK
                    else { return output.isEmpty ? nil : (output, false) }
                default:
                    // Damaged or truncated: what inflated so far is still scanned.
                    return output.isEmpty ? nil : (output, false)
                }
            }
        }
    }
}
