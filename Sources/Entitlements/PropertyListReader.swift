import Foundation

/// Reads XML and binary property lists whose top level must be a dictionary (as entitlements are).
public enum PropertyListReader {
    /// Parses `data` (XML or `bplist00`) from `file` into its top-level dictionary.
    /// - Throws: when the bytes are not a property list or the top level is not a dictionary.
    public static func dictionary(from data: Data, file: String) throws(EntitlementsError) -> [String: PlistValue] {
        guard !data.isEmpty else { throw EntitlementsError(file, "empty property list") }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw EntitlementsError(file, "not a property list (\(firstLine(of: error)))")
        }
        guard let value = PlistValue(foundation: object) else {
            throw EntitlementsError(file, "property list holds a value of an unknown type")
        }
        guard case .dictionary(let entries) = value else {
            throw EntitlementsError(file, "property list is \(value.typeNameWithArticle), not a dictionary")
        }
        return entries
    }

    /// Whether `bytes` (a file's first bytes) start like a property list: `bplist` or, after white space and a
    /// UTF-8 byte-order mark, `<`.
    static func looksLikePlist(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: Array("bplist".utf8)) { return true }
        let text = bytes.starts(with: [0xef, 0xbb, 0xbf]) ? bytes.dropFirst(3) : bytes[...]
        return text.first { ![0x20, 0x09, 0x0a, 0x0d].contains($0) } == UInt8(ascii: "<")
    }

    /// Serialises `entries` as a binary (`bplist00`) or XML property list.
    public static func data(from entries: [String: PlistValue], binary: Bool) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: PlistValue.dictionary(entries).foundation,
            format: binary ? .binary : .xml, options: 0)
    }

    /// Foundation's message without its user-info dump, so an error stays one line.
    static func firstLine(of error: any Error) -> String {
        let nsError = error as NSError
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return debug }
        return "\(nsError.domain) \(nsError.code)"
    }
}
