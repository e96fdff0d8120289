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

/// An app group identifier as iOS takes it in `com.apple.security.application-groups`: `group.`
/// then a reverse-DNS name (letters, digits, `-` and `.`, no empty part), at most 255 characters.
/// The runner makes a folder of each (`<device>/groups/<id>`), so `../../x` is refused here.
public enum AppGroupID {
    /// Why `id` is not an app group identifier, or nil.
    public static func problem(_ id: String) -> String? {
        guard id.hasPrefix("group."), id.count > "group.".count else {
            return "is not an app group identifier (group. then a reverse-DNS name, such as group.com.example.app)"
        }
        guard id.utf8.count <= 255 else { return "is longer than 255 bytes" }
        let allowed = id.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "." }
        guard allowed, !id.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) else {
            return "is not an app group identifier: only letters, digits, - and . in non-empty parts (group.com.example.app)"
        }
        return nil
    }
}
