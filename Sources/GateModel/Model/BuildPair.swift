/// An upgrade route: a first build (or none, for a fresh install), the builds installed in place
/// after it one by one (`via`, the intermediate hops; empty for a two-build path), and the build
/// installed last.
///
/// Its id names the route's folder under `paths/` and its rows in every report: `v1-to-v2`,
/// `none-to-v3` for a fresh install, `v1-to-v2-to-v3` for a route through v2 (the `-to-` spelling
/// suits every file system; the command line's spelling `v1>v2>v3` is what `gate --routes` reads, see
/// ``init(routeText:)``). A two-build path keeps the id, the encoding and the artifacts it had
/// before routes existed: `via` is left out of its JSON.
///
/// `old` and `new` keep their meaning on a longer route, the first and the last build: the first
/// build seeds, every check is judged against what it seeded, and the scenario's own steps run
/// against the last one. Each build of `via` is installed in place and launched as a user would
/// (``CellRunner``), seeding nothing.
public struct BuildPair: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The build installed first, or nil for a fresh install.
    public package(set) var old: String?
    /// The builds installed in place between `old` and `new`, in order (empty for a two-build path).
    public package(set) var via: [String]
    /// The build installed last.
    public package(set) var new: String

    /// A path from `old` (nil for a fresh install) to `new`, through `via`.
    public init(old: String?, via: [String] = [], new: String) {
        self.old = old
        self.via = via
        self.new = new
    }

    /// A route through `builds` in order (two or more; the first is the one that seeds).
    public init(route builds: [String]) {
        precondition(builds.count >= 2, "a route has two or more builds")
        self.init(old: builds[0], via: Array(builds.dropFirst().dropLast()), new: builds[builds.count - 1])
    }

    /// Every build of the route in order, the first one included when there is one.
    public var builds: [String] { (old.map { [$0] } ?? []) + via + [new] }

    /// The build installed right before `new`: the last hop starts here (nil for a fresh install).
    public var previous: String? { via.last ?? old }

    /// Whether the route has intermediate hops (three or more builds).
    public var isMultiHop: Bool { !via.isEmpty }

    /// The route's prefixes of two or more builds, shortest first, the route itself last.
    public var prefixes: [BuildPair] {
        guard old != nil else { return [self] }
        let all = builds
        return (2...all.count).map { BuildPair(route: Array(all.prefix($0))) }
    }

    /// The path id, `v1-to-v2`, `none-to-v3` or `v1-to-v2-to-v3`.
    public var id: String { ([old ?? "none"] + via + [new]).joined(separator: "-to-") }

    /// The path id.
    public var description: String { id }

    /// Whether the path is a fresh install (no old build).
    public var isFreshInstall: Bool { old == nil }

    /// Parses a path id made by ``id``.
    public init?(id: String) {
        let parts = id.components(separatedBy: "-to-")
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else { return nil }
        // Only the first build may be "none" (a fresh install), and a fresh install has no hops.
        guard !parts.dropFirst().contains("none"), parts[0] != "none" || parts.count == 2 else { return nil }
        self.init(old: parts[0] == "none" ? nil : parts[0], via: Array(parts.dropFirst().dropLast()), new: parts.last!)
    }

    /// Parses one entry of `--routes`: builds joined by `>` (`v1>v2>v3`, the command line's spelling) or by
    /// `-to-` (`v1-to-v2-to-v3`, the path id). Nil when it holds fewer than two builds or an empty one.
    public init?(routeText text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let parts =
            (trimmed.contains(">") ? trimmed.components(separatedBy: ">") : trimmed.components(separatedBy: "-to-"))
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count >= 2, !parts.contains(where: \.isEmpty) else { return nil }
        self.init(route: parts)
    }

    /// Paths sort by id, so every report and every shard sees the same order.
    public static func < (lhs: BuildPair, rhs: BuildPair) -> Bool { lhs.id < rhs.id }

    private enum CodingKeys: String, CodingKey { case old, via, new }

    /// Decodes a path; `via` may be absent (a two-build path, as run.json held it before routes).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        old = try container.decodeIfPresent(String.self, forKey: .old)
        via = try container.decodeIfPresent([String].self, forKey: .via) ?? []
        new = try container.decode(String.self, forKey: .new)
    }

    /// Encodes a path; `via` only when the route has hops, so two-build paths keep their bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(old, forKey: .old)
        if !via.isEmpty { try container.encode(via, forKey: .via) }
        try container.encode(new, forKey: .new)
    }

    /// Checks that `id` can name a build in a path id and a folder name.
    /// - Throws: ``GateError/invalidBuildID(_:reason:)`` when it is empty, `none`, holds `-to-`, `>`,
    ///   a slash, a comma or white space, or starts with a dot.
    public static func validate(buildID id: String) throws(GateError) {
        if id.isEmpty { throw .invalidBuildID(id, reason: "is empty") }
        if id == "none" { throw .invalidBuildID(id, reason: "\"none\" stands for no build in a path id") }
        if id.contains("-to-") { throw .invalidBuildID(id, reason: "contains \"-to-\", which separates a path id") }
        if id.contains(">") { throw .invalidBuildID(id, reason: "contains \">\", which separates a route") }
        if id.hasPrefix(".") { throw .invalidBuildID(id, reason: "starts with a dot") }
        if id.contains(where: { $0 == "/" || $0 == "," || $0.isWhitespace || $0 == "\\" }) {
            throw .invalidBuildID(id, reason: "contains a slash, a comma or white space")
        }
    }
}
