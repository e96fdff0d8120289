import Foundation

/// The shape of one secret's bytes in a test case: real tokens and passwords hold symbols, spaces,
/// newlines, non-ASCII text, bytes that are not UTF-8, nothing at all, or kilobytes. A migration that
/// trims, normalises, re-encodes or lossily decodes a secret passes a gate that only seeds letters
/// and digits; across its cells, a gate seeds each label in every shape its stores can hold.
///
/// The runner picks a shape per (cell, label) and tells the app with one ``argument`` per label
/// (`-UITestSecretShape authToken=whitespace`); the app's harness reads it (``CaseSecrets/init(caseID:arguments:)``).
/// A label without one is ``alnum``, the shape every case had before shapes existed, so a launch by
/// hand and a build that predates shapes see the same values as before.
///
/// Each value derives from the case id, the label and the shape alone: the same bytes on every
/// machine and in every process.
public enum SecretShape: String, CaseIterable, Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 32 letters and digits (`[A-Za-z0-9]`): the shape of every secret before shapes existed.
    case alnum
    /// 32 printable ASCII characters with the symbols encoders change: `+ / = % & < > " \ '`.
    case asciiSymbols = "ascii-symbols"
    /// Letters and digits with a leading tab and space, a space and a newline inside, and a
    /// trailing space and newline: what a trim or a line-based reader changes.
    case whitespace
    /// Non-ASCII UTF-8 in composed form (NFC: `é` is U+00E9), with an emoji outside the BMP.
    case unicodeComposed = "utf8-nfc"
    /// The same characters decomposed (NFD: `é` is `e` and U+0301): other bytes, the same text
    /// to a Unicode-aware comparison.
    case unicodeDecomposed = "utf8-nfd"
    /// 32 bytes that are not UTF-8 (they start with 0xFF and hold a NUL): only a store of bytes
    /// (a keychain item's data, an app group file) can hold them.
    case bytes
    /// No bytes at all: a keychain item with empty data, an empty preference string.
    case empty
    /// 4,160 letters and digits: more than the 4 KiB a fixed buffer or a truncating field keeps.
    case long

    /// The launch argument that carries one label's shape: `-UITestSecretShape <label>=<shape>`
    /// (it may repeat, once per label). Labels hold no `=`; the shape is the text after the last one.
    public static let argument = "-UITestSecretShape"

    public var description: String { rawValue }

    /// Whether the value is valid UTF-8, so that it can be a `String` (a preference, a plist string,
    /// an archived string, a harness caller's `secrets[label]`) without change.
    public var isUTF8: Bool { self != .bytes }

    /// The stores that can hold the shape unchanged. Every store holds text; only a keychain item's
    /// data and an app group file hold bytes that are not UTF-8 (a preference, a plist string, a JSON
    /// string or an archived string is a `String`). Every store can hold the empty value: an empty
    /// keychain item's data is a value (iOS adds it), and so is an empty preference string. Whether
    /// a build's code writes bytes there is its declaration's (``DeclaredItem/holdsBytes``).
    public func fits(_ location: StoreLocation) -> Bool {
        guard self == .bytes else { return true }
        // Exhaustive: a new location decides whether it holds bytes.
        switch location {
        case .keychain, .file: return true
        case .preferences, .archive, .plist, .json, .arguments: return false
        }
    }

    public static func < (lhs: SecretShape, rhs: SecretShape) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The shapes of a case's launch `arguments` by label (``argument``); a word that names no shape
    /// is left out (the label keeps ``alnum``).
    public static func shapes(in arguments: [String]) -> [String: SecretShape] {
        var shapes: [String: SecretShape] = [:]
        for index in arguments.indices.dropLast() where arguments[index] == argument {
            let pair = arguments[index + 1]
            guard let equals = pair.lastIndex(of: "="),
                let shape = SecretShape(rawValue: String(pair[pair.index(after: equals)...]))
            else { continue }
            shapes[String(pair[..<equals])] = shape
        }
        return shapes
    }

    /// The launch arguments that give each label of `shapes` its shape, in label order (``alnum`` is
    /// left out: it is the default).
    public static func arguments(for shapes: [String: SecretShape]) -> [String] {
        shapes.sorted { $0.key < $1.key }.filter { $0.value != .alnum }.flatMap { [argument, "\($0.key)=\($0.value)"] }
    }

    /// The value of this shape for `seed` (one label of one case).
    func value(seed: UInt64) -> Data {
        var generator = SplitMix64(seed: seed)
        func pick(_ alphabet: [UInt8], _ count: Int) -> [UInt8] {
            (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
        }
        switch self {
        case .alnum: return Data(pick(Self.alphanumerics, 32))
        case .asciiSymbols:
            // Random printable ASCII, with every symbol an encoder changes at a fixed place.
            let printable: [UInt8] = Array(0x21...0x7E)
            var value: [UInt8] = pick(printable, 8)
            value += Array("+/=%".utf8)
            value += pick(printable, 8)
            value += Array("&<>\"\\'".utf8)
            value += pick(printable, 6)
            return Data(value)
        case .whitespace:
            let words: [UInt8] = pick(Self.alphanumerics, 30)
            var value: [UInt8] = Array("\t ".utf8)
            value += words[0..<10]
            value.append(0x20)
            value += words[10..<20]
            value.append(0x0A)
            value += words[20..<30]
            value += Array(" \n".utf8)
            return Data(value)
        case .unicodeComposed, .unicodeDecomposed:
            var text: [UInt8] = []
            for index in 0..<12 {
                text += pick(Self.alphanumerics, 2)
                let (composed, decomposed) = Self.accented[Int(generator.next() % UInt64(Self.accented.count))]
                text += Array((self == .unicodeComposed ? composed : decomposed).utf8)
                if index == 5 { text += Array("\u{1F511}".utf8) }
            }
            return Data(text)
        case .bytes:
            // 0xFF never occurs in UTF-8, 0xC3 0x28 is a truncated sequence, and 0x00 ends a C string.
            return Data([0xFF, 0x00] + pick(Array(0...255), 28) + [0xC3, 0x28])
        case .empty: return Data()
        case .long: return Data(pick(Self.alphanumerics, 4160))
        }
    }

    static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Accented letters as NFC and NFD spell them (the decomposed form is the base letter and a
    /// combining mark), written as scalars so that no editor or normaliser can change them.
    static let accented: [(String, String)] = [
        ("\u{E9}", "e\u{301}"), ("\u{F1}", "n\u{303}"), ("\u{FC}", "u\u{308}"), ("\u{C5}", "A\u{30A}"),
        ("\u{E7}", "c\u{327}"), ("\u{1EC7}", "e\u{323}\u{302}"),
    ]
}
