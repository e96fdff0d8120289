import Foundation

/// What build.json may hold beyond its types (issue 29): no field this runner does not read (a
/// typo would pass silently), numbers in range, text of a sane size, app groups iOS would accept.
/// ``BuildManifest/fileProblem(size:)``, ``BuildManifest/unknownFieldProblem(in:)`` and
/// ``BuildManifest/limitsProblem()`` each give one reason naming the field.
extension BuildManifest {
    /// Every top-level field build.json may hold: the manifest's, and the signing fields (`team`,
    /// `settings`) the entitlements diff reads from the same file.
    public static let knownFields = [
        "id", "bundleID", "marketingVersion", "buildNumber", "executable", "schemaVersion", "entitlements", "notes",
        "artefactWindowDays", "antiPattern", "expectedCondition", "keeps", "policies", "standIn", "team", "settings",
        "minimumOSVersion",
        "extensions",
    ]
    /// The largest build.json read (the biggest shipped is 2 KB).
    public static let maximumFileBytes = 256 * 1024
    /// The longest free text (`notes`, `antiPattern`), in characters.
    public static let maximumTextLength = 4096
    /// The longest identifier-like field (`id`, `bundleID`, a label, ...), in characters.
    public static let maximumNameLength = 255
    /// `artefactWindowDays`: a window of days back, at most ten years.
    public static let artefactWindowDaysRange = 0...3650
    /// `schemaVersion`.
    public static let schemaVersionRange = 0...1_000_000

    /// Why a build.json of `size` bytes is not read, or nil.
    public static func fileProblem(size: Int) -> String? {
        size > maximumFileBytes ? "is \(size) bytes, more than a build manifest holds (at most \(maximumFileBytes))" : nil
    }

    /// The first top-level field of `data` (a JSON object) this runner does not read, with the
    /// known field it is likely a typo of; nil when every field is known or `data` is no object
    /// (decoding says why then).
    public static func unknownFieldProblem(in data: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        guard let unknown = object.keys.sorted().first(where: { !knownFields.contains($0) }) else {
            return unknownExtensionFieldProblem(in: object)
        }
        let hint = Spelling.suggestion(for: unknown, among: knownFields).map { "; did you mean \"\($0)\"?" } ?? ""
        return "field \"\(unknown)\" is not a build manifest field\(hint)"
    }

    /// The first field out of range or size, or an app group iOS would refuse, as one reason.
    public func limitsProblem() -> String? {
        if let days = artefactWindowDays, !Self.artefactWindowDaysRange.contains(days) {
            return
                "field \"artefactWindowDays\" is \(days), not a number of days from \(Self.artefactWindowDaysRange.lowerBound) to \(Self.artefactWindowDaysRange.upperBound)"
        }
        if !Self.schemaVersionRange.contains(schemaVersion) {
            return
                "field \"schemaVersion\" is \(schemaVersion), not from \(Self.schemaVersionRange.lowerBound) to \(Self.schemaVersionRange.upperBound)"
        }
        let names = [
            ("id", id), ("bundleID", bundleID), ("marketingVersion", marketingVersion), ("buildNumber", buildNumber),
            ("executable", executable), ("entitlements", entitlements), ("expectedCondition", expectedCondition ?? ""),
        ]
        for (field, value) in names where value.count > Self.maximumNameLength {
            return "field \"\(field)\" is \(value.count) characters, more than \(Self.maximumNameLength)"
        }
        for (field, value) in [("notes", notes ?? ""), ("antiPattern", antiPattern ?? "")]
        where value.count > Self.maximumTextLength {
            return "field \"\(field)\" is \(value.count) characters, more than \(Self.maximumTextLength)"
        }
        return keeps?.limitsProblem()
    }
}

extension BuildDeclaration {
    /// The first label longer than a name, or app group no platform takes, as one reason naming the field (a
    /// build.json names no platform, so macOS's team-prefixed groups are taken as its entitlements take them).
    func limitsProblem() -> String? {
        for (list, items) in [("secrets", secrets), ("bookkeeping", bookkeeping)] {
            for (index, item) in items.enumerated() {
                let field = "keeps.\(list)[\(index)]"
                if item.label.count > BuildManifest.maximumNameLength {
                    return
                        "field \"\(field).label\" is \(item.label.count) characters, more than \(BuildManifest.maximumNameLength)"
                }
                if (item.shapesReason?.count ?? 0) > BuildManifest.maximumTextLength {
                    return "field \"\(field).shapesReason\" is longer than \(BuildManifest.maximumTextLength) characters"
                }
                if let group = item.store.group, let reason = AppGroupID.problem(group, platform: .unknown) {
                    return "field \"\(field).store.group\" \(QuotedString.text(group)) \(reason)"
                }
            }
        }
        return nil
    }
}

/// A value in quotes for a manifest's reason, cut when long (the full value may be megabytes).
enum QuotedString {
    static func text(_ value: String) -> String {
        value.count > 80 ? "\"\(value.prefix(40))…\"" : "\"\(value)\""
    }
}
