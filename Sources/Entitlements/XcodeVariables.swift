/// The build settings an Xcode `.entitlements` file may refer to, and their expansion in every key and string.
///
/// A name is looked up in ``settings`` first (as `xcodebuild NAME=VALUE` overrides every other level), then among
/// the names signing derives from the team and bundle id: `AppIdentifierPrefix` and `TeamIdentifierPrefix` (the
/// team and a dot), `DEVELOPMENT_TEAM`, `PRODUCT_BUNDLE_IDENTIFIER` and its Info.plist spelling `CFBundleIdentifier`.
public struct XcodeVariables: Sendable, Equatable {
    /// The Team ID (ten characters, such as `Q7X2K9M4TD`), when known.
    public var team: String?
    /// The bundle identifier, when known.
    public var bundleID: String?
    /// Build settings by name (from `--setting`, `--settings FILE` or a manifest's `settings`); values may refer to
    /// other settings.
    public var settings: [String: String]

    /// Makes a set of variables from a team, a bundle id and build settings.
    public init(team: String? = nil, bundleID: String? = nil, settings: [String: String] = [:]) {
        self.team = team
        self.bundleID = bundleID
        self.settings = settings
    }

    /// How deep settings may refer to settings; a chain this long is a loop.
    static let maximumDepth = 32

    /// The entries with every `$(NAME)` and `${NAME}` replaced.
    /// - Throws: naming the file, the key and the first variable that is unknown or has no value.
    public func expand(_ entries: [String: PlistValue], file: String) throws(EntitlementsError) -> [String: PlistValue] {
        try expand(entries, file: file, path: "")
    }

    func expand(_ entries: [String: PlistValue], file: String, path: String) throws(EntitlementsError) -> [String: PlistValue] {
        var expanded: [String: PlistValue] = [:]
        for key in entries.keys.sorted() {
            guard let value = entries[key] else { continue }
            let place = path.isEmpty ? key : "\(path).\(key)"
            expanded[try expand(key, file: file, place: place)] = try expand(value, file: file, place: place)
        }
        return expanded
    }

    func expand(_ value: PlistValue, file: String, place: String) throws(EntitlementsError) -> PlistValue {
        switch value {
        case .string(let text): return .string(try expand(text, file: file, place: place))
        case .array(let elements):
            var out: [PlistValue] = []
            for (index, element) in elements.enumerated() {
                out.append(try expand(element, file: file, place: "\(place)[\(index)]"))
            }
            return .array(out)
        case .dictionary(let entries): return .dictionary(try expand(entries, file: file, path: place))
        default: return value
        }
    }

    /// `text` with its variables replaced; `place` (the key, with element indexes) names it in errors.
    func expand(_ text: String, file: String, place: String, chain: [String] = []) throws(EntitlementsError) -> String {
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
                throw EntitlementsError(file, "key \(place): unterminated variable \(rest[dollar...].prefix(40))")
            }
            let reference = String(rest[dollar...close])
            let name = String(rest[rest.index(after: after)..<close])
            out += try value(of: name, reference: reference, file: file, place: place, chain: chain)
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    func value(
        of name: String, reference: String, file: String, place: String, chain: [String]
    ) throws(EntitlementsError) -> String {
        // Xcode's `:rfc1034identifier` and similar modifiers are not applied; a bundle id is already in that form.
        let bare = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        let unexpanded = "key \(place): variable \(reference) left unexpanded"
        if let setting = settings[bare] {
            guard !chain.contains(bare), chain.count < Self.maximumDepth else {
                throw EntitlementsError(
                    file, "\(unexpanded): build setting \(bare) refers to itself (\((chain + [bare]).joined(separator: " -> ")))")
            }
            return try expand(setting, file: file, place: place, chain: chain + [bare])
        }
        let needsTeam =
            "\(unexpanded): it needs a team id (pass --team or --setting DEVELOPMENT_TEAM=..., or set \"team\" in the build manifest)"
        switch bare {
        case "AppIdentifierPrefix", "TeamIdentifierPrefix":
            let team = settings["DEVELOPMENT_TEAM"] ?? team
            guard let team, !team.isEmpty else { throw EntitlementsError(file, needsTeam) }
            return try expand(team, file: file, place: place, chain: chain + [bare]) + "."
        case "DEVELOPMENT_TEAM":
            guard let team, !team.isEmpty else { throw EntitlementsError(file, needsTeam) }
            return team
        case "PRODUCT_BUNDLE_IDENTIFIER", "CFBundleIdentifier":
            if bare == "CFBundleIdentifier", let setting = settings["PRODUCT_BUNDLE_IDENTIFIER"] {
                return try expand(setting, file: file, place: place, chain: chain + [bare])
            }
            guard let bundleID, !bundleID.isEmpty else {
                throw EntitlementsError(
                    file, "\(unexpanded): it needs a bundle id (pass --bundle-id, or set \"bundleID\" in the build manifest)")
            }
            return bundleID
        default:
            throw EntitlementsError(
                file, "\(unexpanded): unknown build setting \(bare) (give it with --setting \(bare)=VALUE or --settings FILE)")
        }
    }
}
