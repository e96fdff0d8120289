internal import CScan
import FileUtility
import Foundation

/// A seeded secret the leak scan looks for, known by a label (such as `authToken`) that reports may print.
package struct Secret: Hashable, Sendable {
    /// A name for reports; never the value.
    package var label: String
    /// The secret's bytes.
    var value: Data

    /// A secret.
    package init(label: String, value: Data) {
        self.label = label
        self.value = value
    }
}

/// How a secret appeared in a file.
package enum SecretEncoding: String, Codable, Sendable, CaseIterable, Comparable {
    /// The bytes themselves.
    case raw
    /// The bytes as a JSON string literal would escape them (`\/` or `/`, `\n`, `\"`, `\u0000`),
    /// when that differs from raw.
    case jsonEscaped = "json-escaped"
    /// As JSON with every non-ASCII character escaped (`\u00e9`, `\ud83d\udd11`; lower- or upper-case
    /// hex), as ASCII-only encoders write it.
    case jsonASCII = "json-ascii"
    /// As XML text escapes it (`&amp;`, `&lt;`, `&gt;`, and in attributes `&quot;`, `&apos;`): an
    /// XML property list's string.
    case xmlEscaped = "xml-escaped"
    /// Percent-encoded, every byte but RFC 3986's unreserved characters as `%XX` (upper-case hex):
    /// a token in a URL or a form body.
    case percent
    /// UTF-16, big- or little-endian: how a binary property list or an archive keeps non-ASCII text,
    /// and what `String.data(using: .utf16)` writes for any text.
    case utf16
    /// UTF-32, big- or little-endian (`String.data(using: .utf32)`).
    case utf32
    /// Standard base64, at any byte alignment inside a longer base64 text.
    case base64
    /// URL-safe base64 (`-`, `_`), with or without padding, at any alignment.
    case base64URL = "base64url"
    /// Base32 (RFC 4648), upper- or lower-case, at any byte alignment inside a longer base32 text.
    case base32
    /// Lower-case hex.
    case hexLower = "hex"
    /// Upper-case hex.
    case hexUpper = "HEX"
    /// Lower-case hex of the secret's SHA-256 (an unkeyed hash, which a dictionary attack can reverse).
    case sha256Hex = "sha256-hex"
    /// Upper-case hex of the secret's SHA-256.
    case sha256HexUpper = "SHA256-HEX"
    /// In any of the encodings above once the file's line breaks are taken out: a value wrapped or
    /// split across lines (base64 at 64 or 76 columns, a hex dump, a token printed in pieces).
    case splitAcrossLines = "split-across-lines"
    /// In any of the encodings above inside a gzip or zlib stream the file is (a compressed log or
    /// archive): the scan inflates it, up to ``SecretScanner/inflatedLimit``.
    case compressed

    package static func < (lhs: SecretEncoding, rhs: SecretEncoding) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One file holding one secret in one encoding. It names the file, the encoding and the secret's
/// index and label, never the value.
package struct SecretLeak: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path relative to the scanned folder.
    package var file: String
    /// The encoding found.
    package var encoding: SecretEncoding
    /// The secret's position in the list given to the scan, from 1.
    package var secretIndex: Int
    /// The secret's label.
    package var secretLabel: String

    /// `paths/v1-to-v2/upgrade/status/01-v1-seed.json: holds secret #2 (authToken) as base64`.
    package var description: String { "\(file): holds secret #\(secretIndex) (\(secretLabel)) as \(encoding.rawValue)" }

    package static func < (lhs: SecretLeak, rhs: SecretLeak) -> Bool {
        (lhs.file, lhs.secretIndex, lhs.encoding) < (rhs.file, rhs.secretIndex, rhs.encoding)
    }
}

/// What a scan read and found.
package struct SecretScanResult: Equatable, Sendable {
    /// Every leak, sorted by file, secret and encoding.
    package var leaks: [SecretLeak]
    /// Files that could not be read and folders that could not be entered, sorted: the scan cannot
    /// vouch for them, so they make the condition UNKNOWN.
    package var unreadable: [String]
    /// How many regular files were read (symbolic links are not followed).
    package var filesScanned: Int
    /// How many bytes were read.
    package var bytesScanned: Int
    /// How many distinct byte patterns were searched for.
    package var patterns: Int
    /// Archived executables vouched for by their pinned digest rather than searched.
    package var filesByDigest = 0

    /// Whether no secret was found and every file could be read.
    package var isClean: Bool { leaks.isEmpty && unreadable.isEmpty }

    /// One line for a closing note: what the scan covered.
    package var coverage: String {
        "\(filesScanned) files, \(bytesScanned) bytes, \(patterns) patterns (\(SecretEncoding.allCases.map(\.rawValue).joined(separator: ", ")))"
            + (filesByDigest == 0 ? "" : "; \(filesByDigest) archived executables vouched for by their pinned sha256")
    }
}

/// The leak scan (`upgrade-runner scan-secrets`): reads every regular file under a folder once,
/// binary files included, and looks for every secret raw, JSON-escaped (with and without `\/`, and
/// ASCII-only with `\uXXXX`), XML-escaped (a plist string), percent-encoded, as UTF-16, in standard and URL-safe
/// base64 (at each of the three byte alignments, so a secret inside a longer base64 text is found
/// too), in lower- and upper-case hex, and as lower- and upper-case SHA-256 hex.
///
/// The search indexes every pattern by its first two bytes, so each file is read and walked once
/// whatever the number of secrets.
package enum SecretScanner {
    /// The shortest secret scanned for; shorter ones would match ordinary text. An empty secret
    /// (``UpgradeContract/SecretShape/empty``) is not looked for at all: there is nothing to find, and
    /// every file would "hold" it. Every non-empty shape a gate seeds is 32 bytes or more.
    static let minimumSecretLength = 4

    /// Scans every regular file under `directory` for `secrets`.
    /// - Throws: ``GateError`` when the folder cannot be listed or a secret is shorter than ``minimumSecretLength``.
    package static func scan(directory: String, secrets: [Secret]) throws(GateError) -> SecretScanResult {
        try scan(directory: directory, secrets: secrets, patterns: SecretPatterns(secrets: secrets))
    }

    /// Scans every regular file under `directory` for `secrets`, whose patterns the caller built
    /// (`SecretPatterns(secrets: secrets)`, shared with whatever else looks for the same secrets).
    /// - Throws: ``GateError`` when the folder cannot be listed.
    package static func scan(
        directory: String, secrets: [Secret], patterns: SecretPatterns
    ) throws(GateError) -> SecretScanResult {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .unreadable(path: directory, reason: "is not a folder")
        }
        guard access(directory, R_OK | X_OK) == 0 else {
            throw .unreadable(path: directory, reason: "cannot list the folder")
        }
        let entries = FileTree.entries(under: directory)
        let files = entries.compactMap { $0.kind == .file ? $0.relative : nil }
        // A folder the scan cannot enter is reported as unreadable, as a file it cannot read is.
        var result = SecretScanResult(
            leaks: [], unreadable: entries.compactMap { $0.kind == .unreadableDirectory ? $0.relative : nil },
            filesScanned: 0, bytesScanned: 0, patterns: patterns.count)
        for relative in files {
            let full = (directory as NSString).appendingPathComponent(relative)
            // An archived executable (`inputs/executables/<sha256>`) that still has the digest it is
            // named by is the build's input as pinned, made before the case's secrets existed: its
            // digest vouches for it, and its 80 MB are not searched (the coverage line counts it).
            if Self.isArchivedExecutable(relative), SHA256.hexOfFile(atPath: full) == (relative as NSString).lastPathComponent {
                result.filesByDigest += 1
                continue
            }
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: full), options: .mappedIfSafe) else {
                result.unreadable.append(relative)
                continue
            }
            result.filesScanned += 1
            result.bytesScanned += data.count
            let found = patterns.deepMatches(in: data)
            if found.truncated { result.unreadable.append(relative) }
            for (secret, encoding) in found.matches {
                result.leaks.append(
                    SecretLeak(file: relative, encoding: encoding, secretIndex: secret + 1, secretLabel: secrets[secret].label))
            }
        }
        result.leaks.sort()
        result.unreadable.sort()
        return result
    }

    /// Whether `relative` names an archived executable: `inputs/executables/` and 64 hex digits.
    static func isArchivedExecutable(_ relative: String) -> Bool {
        let prefix = ArchivedInputs.folderName + "/executables/"
        guard relative.hasPrefix(prefix) else { return false }
        let name = relative.dropFirst(prefix.count)
        return name.count == 64 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Scans `data` (one file's bytes, or a status line) and answers every (secret, encoding) found.
    static func scan(data: Data, secrets: [Secret]) throws(GateError) -> [(label: String, encoding: SecretEncoding)] {
        try SecretPatterns(secrets: secrets).deepMatches(in: data).matches.map { (secrets[$0.secret].label, $0.encoding) }
    }

    /// The most a compressed file is inflated to for the scan (a decompression bomb stops here; what
    /// is beyond it is not vouched for, and the file is reported unreadable).
    package static let inflatedLimit = 256 << 20
}

extension SecretPatterns {
    /// Every (secret, encoding) in `data` as it is, with its line breaks taken out
    /// (``SecretEncoding/splitAcrossLines``), and inside the gzip or zlib stream it is
    /// (``SecretEncoding/compressed``); `truncated` when a stream inflated past the limit.
    package func deepMatches(in data: Data) -> (matches: [(secret: Int, encoding: SecretEncoding)], truncated: Bool) {
        var found = matches(in: data)
        var seen = Set(found.map(\.secret))
        func add(_ more: [(secret: Int, encoding: SecretEncoding)], as encoding: SecretEncoding) {
            for match in more where seen.insert(match.secret).inserted { found.append((match.secret, encoding)) }
        }
        // Lines are text's: a binary file (a NUL in its first 64 KB, such as an executable) has none to join.
        if let joined = Self.withoutLineBreaks(data) { add(matches(in: joined), as: .splitAcrossLines) }
        var truncated = false
        if let inflated = CompressedStream.inflate(data, limit: SecretScanner.inflatedLimit) {
            truncated = inflated.truncated
            let inner = deepMatches(in: inflated.bytes)
            truncated = truncated || inner.truncated
            add(inner.matches, as: .compressed)
        }
        return (found.sorted { ($0.secret, $0.encoding) < ($1.secret, $1.encoding) }, truncated)
    }
}

extension SecretPatterns {
    /// `data` with every CR and LF taken out, or nil when it has none or is not text (a NUL in its
    /// first 64 KB). Through pointers and memchr: the scan reads every artifact this way.
    static func withoutLineBreaks(_ data: Data) -> Data? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Data? in
            guard let base = buffer.baseAddress, buffer.count > 0 else { return nil }
            if memchr(base, 0, min(buffer.count, 1 << 16)) != nil { return nil }
            guard memchr(base, 0x0A, buffer.count) != nil || memchr(base, 0x0D, buffer.count) != nil else { return nil }
            let bytes = buffer.bindMemory(to: UInt8.self)
            var joined = [UInt8](repeating: 0, count: bytes.count)
            let kept = joined.withUnsafeMutableBufferPointer { out -> Int in
                var count = 0
                for byte in bytes where byte != 0x0A && byte != 0x0D {
                    out[count] = byte
                    count += 1
                }
                return count
            }
            return Data(joined.prefix(kept))
        }
    }
}

extension SecretScanner {
}

/// The byte patterns of a set of secrets, indexed by their first two bytes.
package struct SecretPatterns {
    /// Which secret and encoding a pattern stands for.
    private struct Owner: Hashable, Comparable {
        var secret: Int
        var encoding: SecretEncoding
        static func < (lhs: Owner, rhs: Owner) -> Bool { (lhs.secret, lhs.encoding) < (rhs.secret, rhs.encoding) }
    }

    /// Every pattern's bytes, one after another, and where each starts and how long it is: one
    /// buffer, so the search compares through pointers and copies no array per candidate.
    private var bytes: [UInt8] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var owners: [Owner] = []
    /// The patterns indexed by two of their bytes: each index takes the bytes at two fixed offsets
    /// (the first two that are not NUL), so that a wide encoding (`\0\0\0a\0\0\0b`, UTF-32) is found
    /// by its letters and does not stop at every run of NULs in a binary file.
    private var indexes: [KeyedIndex] = []

    private struct KeyedIndex {
        var first: Int
        var second: Int
        var heads = [Int32](repeating: -1, count: 65536)
        var nextInBucket: [Int32] = []
        var patterns: [Int32] = []

        /// Marks in `found` every pattern of this index that occurs in `text`, and appends each newly
        /// found one to `hits` (room for every pattern) from `hitCount` on (C, see CScan: the loop
        /// looks up every byte of every artifact file).
        func search(
            _ text: UnsafeBufferPointer<UInt8>, patterns all: UnsafePointer<UInt8>, starts: UnsafeBufferPointer<Int>,
            lengths: UnsafeBufferPointer<Int>, found: UnsafeMutableBufferPointer<Bool>,
            hits: UnsafeMutableBufferPointer<Int32>, hitCount: inout Int
        ) {
            guard let base = text.baseAddress, text.count > second else { return }
            let added = heads.withUnsafeBufferPointer { heads in
                nextInBucket.withUnsafeBufferPointer { next in
                    patterns.withUnsafeBufferPointer { patterns in
                        cscan_search(
                            base, text.count, first, second, heads.baseAddress!, next.baseAddress, patterns.baseAddress,
                            all, starts.baseAddress, lengths.baseAddress, found.baseAddress, hits.baseAddress! + hitCount)
                    }
                }
            }
            hitCount += added
        }
    }

    var count: Int { starts.count }

    package init(secrets: [Secret]) throws(GateError) {
        var seen: Set<[UInt8]> = []
        var slots: [Int: Int] = [:]
        for (index, secret) in secrets.enumerated() where !secret.value.isEmpty {
            guard secret.value.count >= SecretScanner.minimumSecretLength else {
                throw .invalidValue(
                    field: .named("secret #\(index + 1)"), value: secret.label,
                    reason: "is shorter than \(SecretScanner.minimumSecretLength) bytes, too short to scan for")
            }
            for (encoding, needle) in Self.encodings(of: secret.value) where needle.count >= 2 && seen.insert(needle).inserted {
                // The first two bytes that are not NUL key the pattern (its first two when it has fewer).
                var first = -1, second = -1
                for offset in 0..<needle.count where needle[offset] != 0 {
                    if first < 0 { first = offset } else { second = offset; break }
                }
                if second < 0 { (first, second) = (0, 1) }
                let pattern = Int32(starts.count)
                starts.append(bytes.count)
                lengths.append(needle.count)
                bytes += needle
                owners.append(Owner(secret: index, encoding: encoding))
                let slot: Int
                if let known = slots[first << 32 | second] {
                    slot = known
                } else {
                    slot = indexes.count
                    slots[first << 32 | second] = slot
                    indexes.append(KeyedIndex(first: first, second: second))
                }
                let key = Int(needle[first]) << 8 | Int(needle[second])
                indexes[slot].nextInBucket.append(indexes[slot].heads[key])
                indexes[slot].heads[key] = Int32(indexes[slot].patterns.count)
                indexes[slot].patterns.append(pattern)
            }
        }
    }

    /// Every (secret, encoding) whose pattern occurs in `data`, each once, sorted.
    package func matches(in data: Data) -> [(secret: Int, encoding: SecretEncoding)] {
        var found = [Bool](repeating: false, count: starts.count)
        var hits = [Int32](repeating: 0, count: starts.count)
        var hitCount = 0
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            let text = buffer.bindMemory(to: UInt8.self)
            guard text.count >= 2, !starts.isEmpty else { return }
            bytes.withUnsafeBufferPointer { all in
                starts.withUnsafeBufferPointer { starts in
                    lengths.withUnsafeBufferPointer { lengths in
                        found.withUnsafeMutableBufferPointer { found in
                            hits.withUnsafeMutableBufferPointer { hits in
                                for index in indexes {
                                    index.search(
                                        text, patterns: all.baseAddress!, starts: starts, lengths: lengths, found: found,
                                        hits: hits, hitCount: &hitCount)
                                }
                            }
                        }
                    }
                }
            }
        }
        return Set(hits[0..<hitCount].map { owners[Int($0)] }).sorted().map { ($0.secret, $0.encoding) }
    }

    /// Every pattern of `value`, labelled by encoding.
    static func encodings(of value: Data) -> [(SecretEncoding, [UInt8])] {
        let bytes = [UInt8](value)
        var result: [(SecretEncoding, [UInt8])] = [(.raw, bytes)]
        if let text = String(data: value, encoding: .utf8) {
            for escaped in jsonForms(text) where escaped != bytes { result.append((.jsonEscaped, escaped)) }
            if text.unicodeScalars.contains(where: { !$0.isASCII }) {
                for upper in [false, true] {
                    for escaped in jsonForms(text) {
                        result.append((.jsonASCII, asciiEscaped(escaped, upper: upper)))
                    }
                }
            }
            for escaped in xmlForms(text) where escaped != bytes { result.append((.xmlEscaped, escaped)) }
            // ASCII text too: `String.data(using: .utf16)` writes any text so (with a byte-order mark).
            result.append((.utf16, wide(text.utf16.map(UInt32.init), width: 2, bigEndian: true)))
            result.append((.utf16, wide(text.utf16.map(UInt32.init), width: 2, bigEndian: false)))
            let scalars = text.unicodeScalars.map(\.value)
            result.append((.utf32, wide(scalars, width: 4, bigEndian: true)))
            result.append((.utf32, wide(scalars, width: 4, bigEndian: false)))
        }
        let percent = percentEncoded(bytes)
        if percent != bytes { result.append((.percent, percent)) }
        let standard = value.base64EncodedString()
        result.append((.base64, Array(standard.utf8)))
        for alignment in 0..<3 { result.append((.base64, alignedBase64(bytes, alignment: alignment, urlSafe: false))) }
        result.append((.base64URL, urlSafe(Array(standard.utf8))))
        for alignment in 0..<3 { result.append((.base64URL, alignedBase64(bytes, alignment: alignment, urlSafe: true))) }
        for alignment in 0..<5 {
            let upper = alignedBase32(bytes, alignment: alignment)
            result.append((.base32, upper))
            result.append((.base32, Array(String(decoding: upper, as: UTF8.self).lowercased().utf8)))
        }
        let hex = lowerHex(bytes)
        result.append((.hexLower, Array(hex.utf8)))
        result.append((.hexUpper, Array(hex.uppercased().utf8)))
        let digest = GateHash.hex(value)
        result.append((.sha256Hex, Array(digest.utf8)))
        result.append((.sha256HexUpper, Array(digest.uppercased().utf8)))
        return result
    }

    /// The base64 characters that depend only on the secret's bits when it starts `alignment` bytes
    /// into a 3-byte group of a longer text: the pattern a secret embedded in a larger base64 blob leaves.
    static func alignedBase64(_ bytes: [UInt8], alignment: Int, urlSafe: Bool) -> [UInt8] {
        let padded = Data(repeating: 0, count: alignment) + Data(bytes) + Data(repeating: 0, count: 3)
        var text = Array(padded.base64EncodedString().utf8)
        if urlSafe { text = Self.urlSafe(text) }
        let firstBit = alignment * 8, endBit = firstBit + bytes.count * 8
        let first = (firstBit + 5) / 6, end = endBit / 6
        return end > first ? Array(text[first..<end]) : []
    }

    /// The base32 (RFC 4648) characters that depend only on the secret's bits when it starts
    /// `alignment` bytes into a 5-byte group of a longer base32 text.
    static func alignedBase32(_ bytes: [UInt8], alignment: Int) -> [UInt8] {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        let padded = [UInt8](repeating: 0, count: alignment) + bytes + [UInt8](repeating: 0, count: 5)
        var characters: [UInt8] = []
        var buffer = 0, bits = 0
        for byte in padded {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                characters.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        let firstBit = alignment * 8, endBit = firstBit + bytes.count * 8
        let first = (firstBit + 4) / 5, end = endBit / 5
        return end > first ? Array(characters[first..<end]) : []
    }

    /// The forms a store keeps `value` in when it is text (``SecretLocator`` looks for these): raw,
    /// JSON-escaped, XML-escaped and, for non-ASCII text, UTF-16 in both byte orders.
    package static func storedForms(of value: Data) -> [[UInt8]] {
        guard !value.isEmpty else { return [] }
        let bytes = [UInt8](value)
        guard let text = String(data: value, encoding: .utf8) else { return [bytes] }
        var forms = [bytes] + jsonForms(text) + xmlForms(text)
        if text.utf16.contains(where: { $0 >= 0x80 }) {
            forms.append(text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
            forms.append(text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        }
        var seen: Set<[UInt8]> = []
        return forms.filter { seen.insert($0).inserted }
    }

    /// `text` inside a JSON string literal, without the quotes: as JSONEncoder writes it (`\/`) and
    /// with the slash unescaped (`.withoutEscapingSlashes`, most other encoders).
    static func jsonForms(_ text: String) -> [[UInt8]] {
        let encoder = JSONEncoder()
        guard let escaped = try? encoder.encode(text) else { return [] }
        encoder.outputFormatting = .withoutEscapingSlashes
        let plain = (try? encoder.encode(text)) ?? escaped
        let forms = [[UInt8](escaped.dropFirst().dropLast()), [UInt8](plain.dropFirst().dropLast())]
        return forms[0] == forms[1] ? [forms[0]] : forms
    }

    /// A JSON string body with every non-ASCII character as `\uXXXX` (UTF-16 code units).
    static func asciiEscaped(_ json: [UInt8], upper: Bool) -> [UInt8] {
        var result: [UInt8] = []
        for unit in String(decoding: json, as: UTF8.self).utf16 {
            if unit < 0x80 {
                result.append(UInt8(unit))
            } else {
                let hex = String(unit, radix: 16)
                let padded = String(repeating: "0", count: 4 - hex.count) + hex
                result += Array(("\\u" + (upper ? padded.uppercased() : padded)).utf8)
            }
        }
        return result
    }

    /// `text` as XML character data (`&`, `<`, `>` escaped) and as an attribute value (`"` and `'` too).
    static func xmlForms(_ text: String) -> [[UInt8]] {
        let content = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        let attribute = content.replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&apos;")
        return content == attribute ? [Array(content.utf8)] : [Array(content.utf8), Array(attribute.utf8)]
    }

    /// Every byte but RFC 3986's unreserved characters (`A-Z a-z 0-9 - . _ ~`) as `%XX`.
    static func percentEncoded(_ bytes: [UInt8]) -> [UInt8] {
        let digits = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.append(byte)
            default: result += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return result
    }

    static func urlSafe(_ base64: String) -> String {
        String(decoding: urlSafe(Array(base64.utf8)), as: UTF8.self)
    }

    /// Base64 bytes in the URL-safe alphabet (`-` for `+`, `_` for `/`), without padding.
    static func urlSafe(_ base64: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(base64.count)
        for byte in base64 where byte != UInt8(ascii: "=") {
            result.append(byte == UInt8(ascii: "+") ? UInt8(ascii: "-") : byte == UInt8(ascii: "/") ? UInt8(ascii: "_") : byte)
        }
        return result
    }

    /// Each of `units` as `width` bytes (2: UTF-16 code units, 4: UTF-32 scalars), most significant
    /// byte first or last.
    static func wide(_ units: [UInt32], width: Int, bigEndian: Bool) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(units.count * width)
        for unit in units {
            for index in 0..<width {
                let shift = 8 * (bigEndian ? width - 1 - index : index)
                result.append(UInt8(truncatingIfNeeded: unit >> UInt32(shift)))
            }
        }
        return result
    }
}
