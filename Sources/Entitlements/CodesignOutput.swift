import Foundation

/// Reads what `codesign -d --entitlements` prints: an XML plist (`:-` or `- --xml`) or the `[Dict]` text form,
/// after an optional `Executable=` line and the deprecation warning some versions print first.
public enum CodesignOutput {
    /// The entitlements in `data`, read from `file`.
    /// - Throws: when the text is neither a plist nor the `[Dict]` form, or its top level is not a dictionary.
    public static func read(_ data: Data, file: String) throws(EntitlementsError) -> [String: PlistValue] {
        var bytes = [UInt8](data)
        if let header = blobHeader(in: bytes) { bytes.removeSubrange(header..<(header + 8)) }
        if bytes.starts(with: Array("bplist".utf8)) {
            return try PropertyListReader.dictionary(from: Data(bytes), file: file)
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw EntitlementsError(file, "not UTF-8 text, a binary plist or a Mach-O file")
        }
        let body = try stripPreamble(text, file: file)
        if body.hasPrefix("[") {
            return try CodesignTextForm.parse(body, file: file)
        }
        return try PropertyListReader.dictionary(from: Data(body.utf8), file: file)
    }

    /// Where the raw blob header sits: older codesign printed the blob itself for `--entitlements -` (magic
    /// 0xfade7171 and a length, then the XML) on standard output, after the `Executable=` line it prints on standard
    /// error, so output captured with `2>&1` has the header after that line. Only before any `<` does it count.
    static func blobHeader(in bytes: [UInt8]) -> Int? {
        let magic: [UInt8] = [0xfa, 0xde, 0x71, 0x71]
        var index = 0
        while index + 8 <= bytes.count, bytes[index] != UInt8(ascii: "<") {
            if bytes[index..<(index + 4)].elementsEqual(magic) { return index }
            index += 1
        }
        return nil
    }

    /// The text from the first line of content on, after skipping the lines codesign prints before it.
    static func stripPreamble(_ text: String, file: String) throws(EntitlementsError) -> String {
        var remaining = Substring(text)
        var lineNumber = 0
        while !remaining.isEmpty {
            lineNumber += 1
            let end = remaining.firstIndex(of: "\n") ?? remaining.endIndex
            let line = remaining[remaining.startIndex..<end].trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("<") || line.hasPrefix("[") || line.hasPrefix("{") {
                return String(remaining)
            }
            guard line.isEmpty || isPreambleLine(line) else {
                throw EntitlementsError(
                    file,
                    "line \(lineNumber): expected a property list or codesign's [Dict] form, "
                        + "found \"\(line.prefix(60))\"")
            }
            remaining = end < remaining.endIndex ? remaining[remaining.index(after: end)...] : ""
        }
        throw EntitlementsError(file, "no entitlements in codesign output (only an Executable= line or warnings)")
    }

    /// `Executable=/path`, other `Key=value` lines of `codesign -d`, and its warnings.
    static func isPreambleLine(_ line: String) -> Bool {
        if line.lowercased().hasPrefix("warning:") || line.contains("is deprecated") { return true }
        guard let equals = line.firstIndex(of: "="), equals > line.startIndex else { return false }
        return line[line.startIndex..<equals].allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }
}
