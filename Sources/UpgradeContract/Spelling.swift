/// The closest word to a typo, for a "did you mean" in a one-line message: the command line's
/// unknown options and commands and build.json's unknown fields are suggested the same way.
public enum Spelling {
    /// The closest of `candidates` to `word`, when it is close enough to be a likely typo.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, word.count / 3) else { return nil }
        return best
    }

    /// The Levenshtein distance of `a` and `b`, in characters.
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for i in 1...a.count {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let current = row[j]
                row[j] = a[i - 1] == b[j - 1] ? previous : min(previous, row[j], row[j - 1]) + 1
                previous = current
            }
        }
        return row[b.count]
    }
}

/// The platform an artifact is for, as far as its entitlements tell: app group identifiers are validated by its rules.
public enum ApplePlatform: String, Sendable, Equatable {
    /// iOS and the platforms that share its rules (the `application-identifier` key): app groups are `group.` ones.
    case iOS
    /// macOS (`com.apple.application-identifier`, App Sandbox's `com.apple.security.*` keys): app groups are
    /// team-prefixed (`<TeamID>.<name>`, Xcode's `$(TeamIdentifierPrefix)<name>`) or `group.` ones.
    case macOS
    /// Nothing tells: what either platform takes is taken, since strictness never refuses what Apple's tools accept.
    case unknown
}

/// An app group identifier as Apple's platforms take it in `com.apple.security.application-groups`: `group.` then a
/// reverse-DNS name on every platform, and on macOS also `<TeamID>.<name>` (the form Xcode writes as
/// `$(TeamIdentifierPrefix)<name>`); letters, digits, `-` and `.`, no empty part, at most 255 bytes whatever the
/// platform. The runner makes a folder of each (`<device>/groups/<id>`), so `../../x` is refused everywhere.
public enum AppGroupID {
    /// Why `id` is not an app group identifier on iOS, or nil (0.9.0's call, kept so that its callers compile).
    public static func problem(_ id: String) -> String? { problem(id, platform: .iOS, team: nil) }

    /// Why `id` is not an app group identifier on `platform`, or nil.
    /// - Parameter team: the artifact's team, when known: its prefix is a macOS app group's too, whatever its shape.
    public static func problem(_ id: String, platform: ApplePlatform, team: String? = nil) -> String? {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        let grouped = id.hasPrefix("group.") && id.count > "group.".count
        let teamPrefixed =
            parts.count >= 2 && (isTeamIdentifier(parts[0]) || (team.map { !$0.isEmpty && parts[0] == $0 } ?? false))
        switch platform {
        case .iOS:
            guard grouped else {
                let macOSForm = teamPrefixed ? " (\(parts[0]).<name> is macOS's form)" : ""
                return
                    "is not an app group identifier\(macOSForm) (group. then a reverse-DNS name, such as group.com.example.app)"
            }
        case .macOS, .unknown:
            guard grouped || teamPrefixed else {
                return "is not an app group identifier (group. then a reverse-DNS name, such as group.com.example.app, "
                    + "or on macOS <TeamID>.<name>, such as Q7X2K9M4TD.com.example.app)"
            }
        }
        guard id.utf8.count <= 255 else { return "is longer than 255 bytes" }
        let allowed = id.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "."
        }
        guard allowed, !parts.contains(where: \.isEmpty) else {
            return "is not an app group identifier: only letters, digits, - and . in non-empty parts (group.com.example.app)"
        }
        return nil
    }

    /// Whether `prefix` has the shape of an Apple team identifier: ten capital letters and digits.
    static func isTeamIdentifier(_ prefix: Substring) -> Bool {
        prefix.utf8.count == 10 && prefix.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
}
