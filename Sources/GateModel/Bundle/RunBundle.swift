import FileUtility
import Foundation
import UpgradeContract

/// A run's artifacts and archived inputs in one file (`upgrade-runner bundle DIR -o FILE.tar.gz`),
/// which `replay FILE.tar.gz` accepts: a ustar archive (``USTar``) in gzip (``Gzip``, zlib), so
/// `tar xzf` unpacks it too.
///
/// Every member sits under one folder, `run/`: the run's own files (run.json, gate.json, junit.xml,
/// summary.md, timings.json, paths/, inputs/), never a replay of it or files that are not the run's.
/// The bytes depend only on those files: entries sorted by path (byte order), folders 0755, files
/// 0644 or 0755 when executable, owner root (uid and gid 0), one fixed time, no gzip name or time,
/// one compression level. Both ways stream a chunk at a time: a bundle never sits in memory whole.
package enum RunBundle {
    /// The folder every member sits under.
    package static let topFolder = "run"
    /// The top-level names of a run folder a bundle carries.
    package static let carried: Set<String> = [
        GateArtifacts.runFile, GateArtifacts.gateFile, GateArtifacts.junitFile, GateArtifacts.summaryFile,
        ArtifactLayout.timingsFile,
        ArtifactLayout.paths, ArchivedInputs.folderName,
    ]
    /// The name start of a bundle's unpack folder, `upgrade-runner-bundle-<pid>-<uuid>`.
    package static let unpackPrefix = "upgrade-runner-bundle-"

    /// One member as it is on disk.
    struct Member {
        /// The path inside the bundle, `run/...`.
        var path: String
        var kind: USTar.Entry.Kind
        var mode: Int
        /// The file on disk (a folder's is unused).
        var source: String
        var size: Int
    }

    /// The members of the run in `folder`, sorted by path (byte order).
    /// - Throws: ``GateError`` (exit 2) naming a file that is neither a file nor a folder.
    static func members(of folder: String) throws(GateError) -> [Member] {
        var members = [Member(path: topFolder, kind: .folder, mode: 0o755, source: folder, size: 0)]
        let top: [String]
        do { top = try FileManager.default.contentsOfDirectory(atPath: folder) } catch { throw .io(error, "listing", folder) }
        for name in top.sorted() where carried.contains(name) {
            try collect(folder, relative: name, into: &members)
        }
        members.sort { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
        return members
    }

    private static func collect(_ root: String, relative: String, into members: inout [Member]) throws(GateError) {
        let path = root + "/" + relative
        var info = stat()
        guard lstat(path, &info) == 0 else { throw .io(path: path, doing: "reading", cause: FileFailure.posix(errno)) }
        let archived = topFolder + "/" + relative
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            members.append(Member(path: archived, kind: .folder, mode: 0o755, source: path, size: 0))
            let names: [String]
            do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch { throw .io(error, "listing", path) }
            for name in names.sorted() { try collect(root, relative: relative + "/" + name, into: &members) }
        case S_IFREG:
            let mode = info.st_mode & 0o111 != 0 ? 0o755 : 0o644
            members.append(Member(path: archived, kind: .file, mode: mode, source: path, size: Int(info.st_size)))
        default:
            throw .malformed(path: path, reason: "is not a file or a folder (a bundle holds only files and folders)")
        }
    }

    /// Writes the bundle of the run in `folder` to `file` (through a temporary file beside it, renamed
    /// over it at the end) and answers its size.
    /// - Throws: ``GateError`` (exit 2) naming the file or folder when it cannot be bundled, or
    ///   ``GateError/io(path:doing:cause:)`` (exit 3) when the bundle cannot be written.
    package static func pack(_ folder: String, to file: String) throws(GateError) -> Int {
        let members = try members(of: folder)
        let temporary = (file as NSString).deletingLastPathComponent + "/" + ArtifactFile.temporaryPrefix + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(path: file, doing: "writing", cause: FileFailure.posix(errno)) }
        var done = false
        defer {
            close(descriptor)
            if !done { unlink(temporary) }
        }
        fchmod(descriptor, 0o644)
        let writer = Gzip.Writer(descriptor: descriptor, path: file)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Gzip.chunk, alignment: 8)
        defer { buffer.deallocate() }
        for member in members {
            do {
                try writer.write(try USTar.header(path: member.path, kind: member.kind, mode: member.mode, size: member.size))
            } catch let failure as USTar.Failure {
                throw .malformed(path: member.source, reason: failure.reason)
            } catch let error as GateError {
                throw error
            } catch {
                throw .malformed(path: member.source, reason: "cannot be bundled")
            }
            guard member.kind == .file else { continue }
            try copy(member, through: writer, buffer: buffer)
            try writer.write(Data(count: USTar.padding(member.size)))
        }
        try writer.write(USTar.end)
        try writer.finish()
        guard fsync(descriptor) == 0 else { throw .io(path: file, doing: "writing", cause: FileFailure.posix(errno)) }
        guard rename(temporary, file) == 0 else { throw .io(path: file, doing: "writing", cause: FileFailure.posix(errno)) }
        done = true
        var info = stat()
        return stat(file, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Streams one file's content into `writer`, refusing a file whose size changed since it was listed.
    private static func copy(
        _ member: Member, through writer: Gzip.Writer, buffer: UnsafeMutableRawBufferPointer
    ) throws(GateError) {
        let source = open(member.source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard source >= 0 else { throw .io(path: member.source, doing: "reading", cause: FileFailure.posix(errno)) }
        defer { close(source) }
        var total = 0
        while true {
            let count = read(source, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .io(path: member.source, doing: "reading", cause: FileFailure.posix(errno))
            }
            if count == 0 { break }
            guard total + count <= member.size else { break }
            try writer.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            total += count
        }
        guard total == member.size else {
            throw .malformed(
                path: member.source, reason: "changed while it was being bundled (\(member.size) bytes, then \(total))")
        }
    }

    /// Unpacks the bundle `file` into `folder`, which must not exist: every folder 0700 and every
    /// file 0600 (0700 when executable) whatever the umask, since a run's files may hold a leaked
    /// secret. Answers the run folder in it.
    /// - Throws: ``GateError/malformed(path:reason:)`` (exit 2) naming `file` (and the member) when
    ///   it is not gzip, truncated, damaged, or holds a member outside `run/`, a path that climbs out
    ///   of it, a member twice, or a name that is both a file and a folder, or when it unpacks to more
    ///   than ``UnpackBounds`` allow (bytes or entries); `folder` is removed then.
    ///
    /// `folder` carries an ``OwnedFolder`` marker whose lock this process holds until the caller
    /// removes the folder and calls ``OwnedFolder/release(_:)``.
    package static func unpack(_ file: String, into folder: String, bounds: UnpackBounds = .standard) throws(GateError) -> String
    {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: file, reason: "cannot be read (\(FileFailure.posix(errno)))") }
        defer { close(descriptor) }
        do throws(OwnedFolder.Failure) { try OwnedFolder.create(folder) } catch {
            throw .io(path: folder, doing: "creating the bundle's unpack folder", cause: error.cause)
        }
        var info = stat()
        let compressed = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        var unpacker = Unpacker(
            file: file, folder: folder, reader: Gzip.Reader(descriptor: descriptor), compressed: compressed, bounds: bounds)
        do throws(GateError) {
            try unpacker.run()
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            OwnedFolder.release(folder)
            throw error
        }
        return folder + "/" + topFolder
    }

    /// Removes the unpack folders of runners that no longer exist (`upgrade-runner-bundle-…` whose
    /// marker is a runner's and whose lock is free, ``OwnedFolder``) in the temporary folder: a replay
    /// killed while it ran leaves its unpacked bundle, and the next start of any runner removes it.
    package static func removeAbandonedUnpacks(in base: String = NSTemporaryDirectory()) {
        AbandonedFolders.remove(in: base, prefixes: [unpackPrefix])
    }
}

/// What a bundle may unpack to, so that a crafted one (a gzip bomb, or hundreds of thousands of
/// empty entries) is refused cheaply, before it fills the temporary folder or takes minutes.
///
/// A real bundle holds its executables (about 80 MB each, compressing about 2.6 times at zlib level
/// 1) and a run's JSON and logs (about 2,500 files for the default gate, compressing up to about 8
/// times): ``ratio`` times the compressed size plus ``floor`` is far above any of them, and a 1 MB
/// bomb stops at 74 MB. Bytes count the whole tar stream (headers, padding and what follows the end).
package struct UnpackBounds: Sendable {
    /// Unpacked bytes allowed per compressed byte.
    package var ratio = 10
    /// Unpacked bytes allowed whatever the compressed size (a run without executables compresses best).
    package var floor = 64 << 20
    /// Entries (files and folders) allowed: eight times the default gate's.
    package var entries = 20_000

    /// The bounds every bundle is unpacked within (tests use smaller ones).
    package static let standard = UnpackBounds()

    /// The byte bound of a bundle of `compressed` bytes.
    package func bytes(compressed: Int) -> Int { compressed.multipliedReportingOverflow(by: ratio).partialValue + floor }

    /// The bound as one line says it.
    func describe(compressed: Int) -> String {
        "\(bytes(compressed: compressed)) bytes (\(ratio) times its \(compressed) compressed bytes plus \(floor) bytes)"
    }
}

/// One unpack: the members read in order, each checked before anything is made for it.
private struct Unpacker {
    let file: String
    let folder: String
    let reader: Gzip.Reader
    /// The bundle's size, its ``UnpackBounds/bytes(compressed:)``, and the tar stream's bytes read so far.
    let compressed: Int
    let bounds: UnpackBounds
    let byteBound: Int
    var consumed = 0
    /// Paths made as files, and as folders (named, or implied by a member inside them).
    var files: Set<String> = []
    var folders: Set<String> = []
    var named: Set<String> = []

    init(file: String, folder: String, reader: Gzip.Reader, compressed: Int, bounds: UnpackBounds) {
        self.file = file
        self.folder = folder
        self.reader = reader
        self.compressed = compressed
        self.bounds = bounds
        byteBound = bounds.bytes(compressed: compressed)
    }

    /// Counts `count` more bytes of the tar stream, refusing the bundle past its bound.
    private mutating func consume(_ count: Int) throws(GateError) {
        consumed += count
        guard consumed <= byteBound else {
            throw .malformed(
                path: file,
                reason: "unpacks to more than \(bounds.describe(compressed: compressed)): refused as a bomb, not a run")
        }
    }

    mutating func run() throws(GateError) {
        var index = 0
        while true {
            index += 1
            guard index <= bounds.entries else {
                throw .malformed(path: file, reason: "holds more than \(bounds.entries) entries: refused as a bomb, not a run")
            }
            try consume(USTar.blockSize)
            guard
                let header = try gzip(
                    { () throws(Gzip.Failure) in try reader.read(count: USTar.blockSize) },
                    { block throws(USTar.Failure) in
                        try USTar.parse(block, entry: index)
                    })
            else { break }
            try check(header)
            let path = folder + "/" + header.path
            switch header.kind {
            case .folder:
                try makeFolder(path)
            case .file:
                // Refused before a byte of it is written when the header already claims too much.
                try consume(header.size + USTar.padding(header.size))
                try makeFolder((path as NSString).deletingLastPathComponent)
                try write(header, to: path)
            }
        }
        // What follows the end block: the second zero block and any record padding, all zeros.
        while true {
            let rest = try gzip({ () throws(Gzip.Failure) in try reader.read(count: Gzip.chunk) })
            try consume(rest.count)
            guard rest.allSatisfy({ $0 == 0 }) else {
                throw .malformed(path: file, reason: "holds data after the end of its tar archive")
            }
            if rest.count < Gzip.chunk { break }
        }
        guard files.contains(RunBundle.topFolder + "/" + GateArtifacts.runFile) else {
            throw .malformed(
                path: file, reason: "holds no \(RunBundle.topFolder)/\(GateArtifacts.runFile): it is not a run bundle")
        }
    }

    /// Refuses a member outside `run/`, one seen before, and one whose name is a file and a folder at once.
    private mutating func check(_ header: USTar.Header) throws(GateError) {
        let parts = header.path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == Substring(RunBundle.topFolder), !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
        else {
            throw .malformed(path: file, reason: "holds \(header.path), outside the bundle's \(RunBundle.topFolder)/ folder")
        }
        guard named.insert(header.path).inserted else { throw .malformed(path: file, reason: "holds \(header.path) twice") }
        var ancestor = ""
        for part in parts.dropLast() {
            ancestor += (ancestor.isEmpty ? "" : "/") + part
            if files.contains(ancestor) {
                throw .malformed(
                    path: file, reason: "holds \(ancestor) both as a file and as a folder (\(header.path) is inside it)")
            }
            folders.insert(ancestor)
        }
        switch header.kind {
        case .file:
            if folders.contains(header.path) {
                throw .malformed(path: file, reason: "holds \(header.path) both as a folder and as a file")
            }
            files.insert(header.path)
        case .folder:
            if files.contains(header.path) {
                throw .malformed(path: file, reason: "holds \(header.path) both as a file and as a folder")
            }
            folders.insert(header.path)
        }
    }

    private func makeFolder(_ path: String) throws(GateError) {
        var info = stat()
        if lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR { return }
        try makeFolder((path as NSString).deletingLastPathComponent)
        guard mkdir(path, 0o700) == 0 else {
            throw .io(path: path, doing: "unpacking \(file) into", cause: FileFailure.posix(errno))
        }
        chmod(path, 0o700)
    }

    private func write(_ header: USTar.Header, to path: String) throws(GateError) {
        let target = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard target >= 0 else { throw .io(path: path, doing: "unpacking \(file) into", cause: FileFailure.posix(errno)) }
        defer { close(target) }
        fchmod(target, header.mode & 0o111 != 0 ? 0o700 : 0o600)
        var left = header.size
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Gzip.chunk, alignment: 8)
        defer { buffer.deallocate() }
        while left > 0 {
            let want = min(left, buffer.count)
            let got = try gzip({ () throws(Gzip.Failure) in
                try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]))
            })
            guard got == want else {
                throw .malformed(path: file, reason: "is truncated: the archive ends inside \(header.path)")
            }
            try Gzip.Writer.writeAll(target, UnsafeRawBufferPointer(rebasing: buffer[0..<got]), path: path)
            left -= got
        }
        let padding = USTar.padding(header.size)
        if padding > 0 {
            let skipped = try gzip({ () throws(Gzip.Failure) in try reader.read(count: padding) })
            guard skipped.count == padding else {
                throw .malformed(path: file, reason: "is truncated: the archive ends inside \(header.path)")
            }
        }
    }

    /// `read`'s bytes, a gzip failure named as the bundle's.
    private func gzip<T>(_ read: () throws(Gzip.Failure) -> T) throws(GateError) -> T {
        do { return try read() } catch { throw .malformed(path: file, reason: error.reason) }
    }

    /// A header block read and parsed, either failure named as the bundle's.
    private func gzip<T>(
        _ read: () throws(Gzip.Failure) -> [UInt8], _ parse: ([UInt8]) throws(USTar.Failure) -> T
    ) throws(GateError) -> T {
        let block = try gzip(read)
        do { return try parse(block) } catch { throw .malformed(path: file, reason: error.reason) }
    }
}

extension RunBundle {
    /// The files a bundle of `folder` would carry that hold any of `secrets` in any encoding the leak
    /// scan knows (``SecretScanner``), relative to `folder`, sorted: `bundle` refuses to pack them.
    /// A file the gate replaced by a redaction note no longer holds the secret and is not named.
    /// - Throws: ``GateError`` naming a file that cannot be read.
    package static func filesHoldingSecrets(in folder: String, secrets: [Secret]) throws(GateError) -> [String] {
        let patterns = try SecretPatterns(secrets: secrets)
        var found: [String] = []
        for member in try members(of: folder) where member.kind == .file {
            let data: Data
            do { data = try Data(contentsOf: URL(fileURLWithPath: member.source), options: .mappedIfSafe) } catch {
                throw .unreadable(path: member.source, reason: "cannot be read")
            }
            if !patterns.matches(in: data).isEmpty { found.append(String(member.path.dropFirst(topFolder.count + 1))) }
        }
        return found
    }
}
