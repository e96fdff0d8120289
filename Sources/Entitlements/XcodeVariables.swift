/// The build settings an Xcode `.entitlements` file may refer to, and their expansion in every key and string.
public struct XcodeVariables: Sendable, Equatable {
    /// The Team ID (ten characters, such as `Q7X2K9M4TD`), when known.
    public var team: String?
    /// The bundle identifier, when known.
    public var bundleID: String?

    /// Makes a set of variables from a team and a bundle id.
    public init(team: String? = nil, bundleID: String? = nil) {
        self.team = team
        self.bundleID = bundleID
    }

    /// The entries with every `$(NAME)` and `${NAME}` replaced.
    /// - Throws: naming the first variable that is unknown or has no value (a team or bundle id not given).
    public func expand(_ entries: [String: PlistValue], file: String) throws(EntitlementsError) -> [String: PlistValue] {
        var expanded: [String: PlistValue] = [:]
        for key in entries.keys.sorted() {
            guard let value = entries[key] else { continue }
            expanded[try expand(key, file: file)] = try expand(value, file: file)
        }
        return expanded
    }

    func expand(_ value: PlistValue, file: String) throws(EntitlementsError) -> PlistValue {
        switch value {
        case .string(let text): return .string(try expand(text, file: file))
        case .array(let elements):
            var out: [PlistValue] = []
            for element in elements { out.append(try expand(element, file: file)) }
            return .array(out)
        case .dictionary(let entries): return .dictionary(try expand(entries, file: file))
        default: return value
        }
    }

    /// `text` with its variables replaced.
    func expand(_ text: String, file: String) throws(EntitlementsError) -> String {
        guard text.contains("$") else { return text }
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[rest.startIndex..<dollar]
            let after = rest.index(after: dollar)
            guard after < rest.endIndex, rest[after] == "(" || rest[after] == "{" else {
                out += "$"
                rest = rest[after...]
                continue
            }
            let closer: Character = rest[after] == "(" ? ")" : "}"
            guard let close = rest[after...].firstIndex(of: closer) else {
                throw EntitlementsError(file, "unterminated variable \(rest[dollar...].prefix(40))")
            }
            let reference = String(rest[dollar...close])
            let name = String(rest[rest.index(after: after)..<close])
            out += try value(of: name, reference: reference, file: file)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    func value(of name: String, reference: String, file: String) throws(EntitlementsError) -> String {
        // Xcode's `:rfc1034identifier` and similar modifiers are not applied; a bundle id is already in that form.
        let bare = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        switch bare {
        case "AppIdentifierPrefix", "TeamIdentifierPrefix":
            guard let team, !team.isEmpty else {
                throw EntitlementsError(
                    file,
                    "variable \(reference) left unexpanded: it needs a team id "
                        + "(pass --team, or set \"team\" in the build manifest)")
            }
            return team + "."
        case "DEVELOPMENT_TEAM":
            guard let team, !team.isEmpty else {
                throw EntitlementsError(
                    file,
                    "variable \(reference) left unexpanded: it needs a team id "
                        + "(pass --team, or set \"team\" in the build manifest)")
            }
            return team
        case "PRODUCT_BUNDLE_IDENTIFIER", "CFBundleIdentifier":
            guard let bundleID, !bundleID.isEmpty else {
                throw EntitlementsError(
                    file,
                    "variable \(reference) left unexpanded: it needs a bundle id "
                        + "(pass --bundle-id, or set \"bundleID\" in the build manifest)")
            }
            return bundleID
        default:
            throw EntitlementsError(file, "variable \(reference) left unexpanded: unknown build setting \(bare)")
        }
    }
}
