/// An upgrade path: an old build (or none, for a fresh install) upgraded in place to a new build.
///
/// Its id names the path's folder under `paths/` and its rows in every report: `v1-to-v2`, or
/// `none-to-v3` for a fresh install.
public struct BuildPair: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The build installed first, or nil for a fresh install.
    public var old: String?
    /// The build installed last.
    public var new: String

    /// A path from `old` (nil for a fresh install) to `new`.
    public init(old: String?, new: String) {
        self.old = old
        self.new = new
    }

    /// The path id, `v1-to-v2` or `none-to-v3`.
    public var id: String { "\(old ?? "none")-to-\(new)" }

    /// The path id.
    public var description: String { id }

    /// Whether the path is a fresh install (no old build).
    public var isFreshInstall: Bool { old == nil }

    /// Parses a path id made by ``id``.
    public init?(id: String) {
        guard let range = id.range(of: "-to-") else { return nil }
        let old = String(id[..<range.lowerBound])
        let new = String(id[range.upperBound...])
        guard !old.isEmpty, !new.isEmpty, !new.contains("-to-") else { return nil }
        self.init(old: old == "none" ? nil : old, new: new)
    }

    /// Paths sort by id, so every report and every shard sees the same order.
    public static func < (lhs: BuildPair, rhs: BuildPair) -> Bool { lhs.id < rhs.id }

    /// Checks that `id` can name a build in a path id and a folder name.
    /// - Throws: ``GateError/invalidBuildID(_:reason:)`` when it is empty, `none`, holds `-to-`,
    ///   a slash, a comma or white space, or starts with a dot.
    public static func validate(buildID id: String) throws(GateError) {
        if id.isEmpty { throw .invalidBuildID(id, reason: "is empty") }
        if id == "none" { throw .invalidBuildID(id, reason: "\"none\" stands for no build in a path id") }
        if id.contains("-to-") { throw .invalidBuildID(id, reason: "contains \"-to-\", which separates a path id") }
        if id.hasPrefix(".") { throw .invalidBuildID(id, reason: "starts with a dot") }
        if id.contains(where: { $0 == "/" || $0 == "," || $0.isWhitespace || $0 == "\\" }) {
            throw .invalidBuildID(id, reason: "contains a slash, a comma or white space")
        }
    }
}
