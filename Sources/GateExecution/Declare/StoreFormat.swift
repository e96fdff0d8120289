import Foundation

/// The format of a file an app wrote, as a declaration's store kind names it, and the key paths of
/// the values inside it: what `declare` reads from a device.
package enum StoreFormat: String, Sendable, Codable, CaseIterable {
    case plist, json, archive, raw

    /// The format of `data`: a property list whose root names `NSKeyedArchiver` is an archive, any
    /// other property list (binary or XML) a plist, a JSON document whose root is an object or an
    /// array JSON, anything else raw.
    package static func of(_ data: Data) -> StoreFormat {
        if let root = propertyList(data) {
            if let dictionary = root as? [String: Any], dictionary["$archiver"] as? String == "NSKeyedArchiver" {
                return .archive
            }
            return .plist
        }
        if (try? JSONSerialization.jsonObject(with: data)) is [String: Any] { return .json }
        if (try? JSONSerialization.jsonObject(with: data)) is [Any] { return .json }
        return .raw
    }

    /// The property list `data` holds (binary, or XML opening with `<?xml` or `<plist`), else nil:
    /// an OpenStep text plist is not taken (a JSON document would parse as one).
    static func propertyList(_ data: Data) -> Any? {
        let head = String(decoding: data.prefix(64), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard head.hasPrefix("bplist") || head.hasPrefix("<?xml") || head.hasPrefix("<plist") else { return nil }
        return try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// The dotted key paths (keys in sorted order, depth first) of every leaf of `data` read in
    /// `format`, each with its value: strings, numbers, booleans, dates and data. An archive's are
    /// those of its root object (a dictionary's keys, or an object's encoded keys).
    package static func leaves(of data: Data, as format: StoreFormat) -> [(keyPath: String, value: Any)] {
        switch format {
        case .plist: return propertyList(data).map { walk($0, prefix: "") } ?? []
        case .json: return (try? JSONSerialization.jsonObject(with: data)).map { walk($0, prefix: "") } ?? []
        case .archive: return ArchiveReader(data).map { $0.leaves() } ?? []
        case .raw: return []
        }
    }

    static func walk(_ value: Any, prefix: String, depth: Int = 0) -> [(keyPath: String, value: Any)] {
        guard let dictionary = value as? [String: Any] else {
            return prefix.isEmpty || value is [Any] ? [] : [(prefix, value)]
        }
        guard depth < 16 else { return [] }
        return dictionary.keys.sorted().flatMap { key in
            key.contains(".") || key.isEmpty
                ? [] : walk(dictionary[key]!, prefix: prefix.isEmpty ? key : prefix + "." + key, depth: depth + 1)
        }
    }
}

/// An NSKeyedArchiver archive's object graph, read from its property list without unarchiving
/// (no class is instantiated): `$top.root`, and each object's keys resolved through `$objects`.
struct ArchiveReader {
    let objects: [Any]
    let root: Any

    init?(_ data: Data) {
        guard let plist = StoreFormat.propertyList(data) as? [String: Any], let objects = plist["$objects"] as? [Any],
            let top = plist["$top"] as? [String: Any], let root = top["root"]
        else { return nil }
        self.objects = objects
        self.root = root
    }

    /// The index a keyed archiver's UID value stands for: an XML plist's `{"CF$UID": n}`, or a binary
    /// plist's UID object.
    static func uid(_ value: Any) -> Int? {
        if let dictionary = value as? [String: Any], dictionary.count == 1, let number = dictionary["CF$UID"] as? Int {
            return number
        }
        if value is String || value is NSNumber || value is Data || value is [Any] || value is [String: Any] { return nil }
        // Foundation on Linux: an `_NSKeyedArchiverUID` whose stored `value` is the index.
        guard String(describing: type(of: value)).contains("KeyedArchiverUID") else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let number = child.value as? UInt32 { return Int(number) }
            if let number = child.value as? Int { return number }
        }
        return nil
    }

    /// The object `value` stands for: the referenced one for a UID, else the value itself.
    func resolve(_ value: Any) -> Any? {
        guard let index = Self.uid(value) else { return value }
        guard objects.indices.contains(index) else { return nil }
        let object = objects[index]
        if let text = object as? String, text == "$null" { return nil }
        return object
    }

    /// An archived object's keyed values: a dictionary's `NS.keys` and `NS.objects`, or an object's
    /// encoded keys (but `$class`); a string or data object has none.
    func keyed(_ object: Any) -> [String: Any]? {
        guard let fields = object as? [String: Any] else { return nil }
        if let keys = fields["NS.keys"] as? [Any], let values = fields["NS.objects"] as? [Any], keys.count == values.count {
            var result: [String: Any] = [:]
            for (key, value) in zip(keys, values) {
                if let name = resolve(key) as? String, let resolved = resolve(value) { result[name] = resolved }
            }
            return result
        }
        if fields["$class"] == nil { return nil }
        var result: [String: Any] = [:]
        for (key, value) in fields where key != "$class" {
            if let resolved = resolve(value) { result[key] = resolved }
        }
        return result
    }

    /// The leaves under the root object, by dotted key path; `NS.string` and `NS.bytes` objects
    /// (a mutable string or data) count as their value.
    func leaves() -> [(keyPath: String, value: Any)] {
        var found: [(keyPath: String, value: Any)] = []
        func visit(_ value: Any, _ prefix: String, _ depth: Int) {
            guard depth < 16 else { return }
            if let fields = value as? [String: Any], let string = fields["NS.string"] as? String {
                if !prefix.isEmpty { found.append((prefix, string)) }
                return
            }
            if let fields = value as? [String: Any], let bytes = fields["NS.bytes"] as? Data {
                if !prefix.isEmpty { found.append((prefix, bytes)) }
                return
            }
            if let keyed = keyed(value) {
                for key in keyed.keys.sorted() where !key.contains(".") && !key.isEmpty && !key.hasPrefix("$") {
                    visit(keyed[key]!, prefix.isEmpty ? key : prefix + "." + key, depth + 1)
                }
                return
            }
            guard !prefix.isEmpty, !(value is [String: Any]), !(value is [Any]) else { return }
            found.append((prefix, value))
        }
        guard let object = resolve(root) else { return found }
        if let text = object as? String { return [("", text)] }
        visit(object, "", 0)
        return found
    }
}
