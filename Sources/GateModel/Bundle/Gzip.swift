internal import CZlib
import FileUtility
import Foundation

/// gzip (RFC 1952) through the system's zlib, streamed through a file descriptor a chunk at a time,
/// so that a bundle of three 78 MB executables never sits in memory whole.
///
/// Written at one fixed level with zlib's own gzip header (no name, no comment, modification time 0,
/// the Unix OS code), so the same bytes in give the same bytes out with the same zlib. Read with
/// zlib's inflate, which takes compressed and stored deflate blocks alike: bundles of earlier
/// runners (stored blocks only) are read as they always were.
enum Gzip {
    /// `Z_BEST_SPEED`. The executables are almost all of a bundle; on a 79 MB Ledger executable
    /// level 1 gives 30.1 MB in 4.9 s, level 6 (zlib's default) 27.7 MB in 15.7 s and level 9
    /// 27.5 MB in 25.8 s (`gzip -N -c`, two busy cores): the last 8% is not worth three times the time.
    static let level: Int32 = 1
    /// How much is read or written at a time.
    static let chunk = 1 << 20
    /// zlib's window bits for a gzip wrapper (15-bit window, plus 16).
    private static let gzipWindowBits: Int32 = 15 + 16

    /// Why a stream cannot be read; the caller names the file.
    struct Failure: Error {
        var reason: String
    }

    /// Deflates what it is given into an open file.
    final class Writer {
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private let output = UnsafeMutablePointer<UInt8>.allocate(capacity: Gzip.chunk)
        private let descriptor: Int32
        private let path: String
        private var ended = false

        /// A writer into `descriptor`, the file at `path` (named by errors).
        init(descriptor: Int32, path: String, level: Int32 = Gzip.level) {
            self.descriptor = descriptor
            self.path = path
            stream.initialize(to: z_stream())
            // Z_OK unless the memory cannot be had or the arguments are wrong, neither of which a
            // caller can do anything about.
            precondition(czlib_deflate_init(stream, level, Gzip.gzipWindowBits, 8) == Z_OK, "zlib: deflateInit2 failed")
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
            output.deallocate()
        }

        /// Compresses `bytes` and writes what zlib gives back.
        func write(_ bytes: UnsafeRawBufferPointer) throws(GateError) {
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(bytes.count)
            try pump(flush: Z_NO_FLUSH)
        }

        func write(_ data: Data) throws(GateError) {
            var failure: GateError?
            data.withUnsafeBytes { bytes in
                do throws(GateError) { try write(bytes) } catch { failure = error }
            }
            if let failure { throw failure }
        }

        /// Ends the stream: the last blocks and the CRC-32 and length trailer.
        func finish() throws(GateError) {
            precondition(!ended)
            ended = true
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
            try pump(flush: Z_FINISH)
        }

        private func pump(flush: Int32) throws(GateError) {
            var result: Int32 = Z_OK
            repeat {
                stream.pointee.next_out = output
                stream.pointee.avail_out = uInt(Gzip.chunk)
                result = deflate(stream, flush)
                precondition(
                    result == Z_OK || result == Z_STREAM_END || result == Z_BUF_ERROR, "zlib: deflate failed (\(result))")
                let produced = Gzip.chunk - Int(stream.pointee.avail_out)
                try Self.writeAll(descriptor, UnsafeRawBufferPointer(start: output, count: produced), path: path)
            } while stream.pointee.avail_in > 0 || (flush == Z_FINISH && result != Z_STREAM_END)
                || stream.pointee.avail_out == 0
        }

        static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(GateError) {
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw .io(path: path, doing: "writing", cause: FileFailure.posix(errno))
                }
                offset += written
            }
        }
    }

    /// Inflates a gzip file, a chunk at a time.
    final class Reader {
        private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        private let input = UnsafeMutablePointer<UInt8>.allocate(capacity: Gzip.chunk)
        private let descriptor: Int32
        private var ended = false
        private var started = false

        /// A reader of `descriptor`.
        init(descriptor: Int32) {
            self.descriptor = descriptor
            stream.initialize(to: z_stream())
            precondition(czlib_inflate_init(stream, Gzip.gzipWindowBits) == Z_OK, "zlib: inflateInit2 failed")
        }

        deinit {
            inflateEnd(stream)
            stream.deallocate()
            input.deallocate()
        }

        /// Fills `buffer` with the next decompressed bytes; fewer than its size only at the end of the stream.
        /// - Throws: ``Failure`` for a file that is not gzip, is truncated or damaged, or goes on after its stream.
        func read(into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
            var filled = 0
            while filled < buffer.count && !ended {
                if stream.pointee.avail_in == 0 { try refill() }
                stream.pointee.next_out = (buffer.baseAddress! + filled).assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(buffer.count - filled)
                let result = inflate(stream, Z_NO_FLUSH)
                filled = buffer.count - Int(stream.pointee.avail_out)
                switch result {
                case Z_OK: continue
                case Z_STREAM_END:
                    ended = true
                    try checkNothingAfter()
                case Z_BUF_ERROR:
                    // No progress with input and room to spare: nothing more can be read from it.
                    throw Failure(reason: "is truncated: the gzip stream ends early")
                case Z_DATA_ERROR:
                    let message = stream.pointee.msg.map { String(cString: $0) } ?? "corrupt data"
                    if message.contains("check") {
                        throw Failure(reason: "is damaged: its CRC-32 or length does not match its content (zlib: \(message))")
                    }
                    throw Failure(reason: "is damaged: its gzip stream is corrupt (zlib: \(message))")
                default:
                    throw Failure(reason: "cannot be inflated (zlib error \(result))")
                }
            }
            return filled
        }

        /// Reads `count` bytes, or fewer only when the stream ends first.
        func read(count: Int) throws(Failure) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: count)
            var failure: Failure?
            let got = bytes.withUnsafeMutableBytes { buffer in
                do throws(Failure) { return try read(into: buffer) } catch {
                    failure = error
                    return 0
                }
            }
            if let failure { throw failure }
            return Array(bytes.prefix(got))
        }

        private func refill() throws(Failure) {
            var count: Int
            repeat { count = Foundation.read(descriptor, input, Gzip.chunk) } while count < 0 && errno == EINTR
            guard count >= 0 else { throw Failure(reason: "cannot be read (\(FileFailure.posix(errno)))") }
            if !started {
                started = true
                guard count >= 2, input[0] == 0x1F, input[1] == 0x8B else {
                    throw Failure(reason: "is not a gzip file (a bundle is made by upgrade-runner bundle)")
                }
            }
            guard count > 0 else { throw Failure(reason: "is truncated: the gzip stream ends early") }
            stream.pointee.avail_in = uInt(count)
            stream.pointee.next_in = input
        }

        private func checkNothingAfter() throws(Failure) {
            var extra = Int(stream.pointee.avail_in)
            var probe = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = probe.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                extra += count
            }
            guard extra == 0 else { throw Failure(reason: "has \(extra) bytes after the end of its gzip stream") }
        }
    }

    /// `data` as gzip, in memory (tests, and small files).
    static func compress(_ data: Data, level: Int32 = Gzip.level) throws(GateError) -> Data {
        try withPipeFile { descriptor, path throws(GateError) in
            let writer = Writer(descriptor: descriptor, path: path, level: level)
            try writer.write(data)
            try writer.finish()
        }
    }

    /// The content of the gzip `data`, in memory (tests).
    static func decompress(_ data: Data) throws -> Data {
        let path = NSTemporaryDirectory() + "upgrade-runner-gzip-\(getpid())-\(UUID().uuidString)"
        defer { unlink(path) }
        try data.write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GateError.io(path: path, doing: "reading", cause: FileFailure.posix(errno)) }
        defer { close(descriptor) }
        let reader = Reader(descriptor: descriptor)
        var out = Data()
        while true {
            let bytes = try reader.read(count: chunk)
            out.append(contentsOf: bytes)
            if bytes.count < chunk { return out }
        }
    }

    private static func withPipeFile(_ body: (Int32, String) throws(GateError) -> Void) throws(GateError) -> Data {
        let path = NSTemporaryDirectory() + "upgrade-runner-gzip-\(getpid())-\(UUID().uuidString)"
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .io(path: path, doing: "writing", cause: FileFailure.posix(errno)) }
        defer {
            close(descriptor)
            unlink(path)
        }
        try body(descriptor, path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "cannot be read")
        }
        return data
    }
}
