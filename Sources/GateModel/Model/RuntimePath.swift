import FileUtility
import UpgradeContract

/// A path as cells, reports and artifact folders name it: the build pair's id alone (`v1-to-v2`)
/// for a gate on one runtime, or prefixed by the runtime's slug in a runtime matrix
/// (`iOS-15.0/v1-to-v2`, folder `paths/iOS-15.0/v1-to-v2/<scenario>/`).
///
/// A one-runtime gate keeps the bare id, so its artifacts are byte for byte those of a gate before
/// the matrix existed. Build ids hold no slash (``BuildPair/validate(buildID:)``), so the first
/// slash, if any, ends the runtime.
///
/// A cell, a finding and a path's result hold their path as this type from the plan to the
/// documents: the id is what a document stores (its JSON is the id, ``init(from:)`` parses it when
/// a document is read back) and what people read, never something the gate parses again to learn
/// the runtime or the builds.
public struct RuntimePath: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The runtime of a matrix cell; nil for a one-runtime gate.
    public package(set) var runtime: RuntimeVersion?
    /// The upgrade path.
    public package(set) var pair: BuildPair

    /// A path on `runtime` (nil outside a matrix).
    public init(runtime: RuntimeVersion?, pair: BuildPair) {
        self.runtime = runtime
        self.pair = pair
    }

    /// Parses an id made by ``id``.
    public init?(id: String) {
        let parts = id.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 {
            guard let pair = BuildPair(id: id) else { return nil }
            self.init(runtime: nil, pair: pair)
        } else {
            guard let runtime = RuntimeVersion(slug: parts[0]), let pair = BuildPair(id: parts[1]) else { return nil }
            self.init(runtime: runtime, pair: pair)
        }
    }

    /// `v1-to-v2`, or `iOS-15.0/v1-to-v2` in a matrix.
    public var id: String { runtime.map { $0.slug + "/" + pair.id } ?? pair.id }

    /// The id.
    public var description: String { id }

    /// Paths sort by id, as reports list them.
    public static func < (lhs: RuntimePath, rhs: RuntimePath) -> Bool { lhs.id < rhs.id }

    /// Reads the id a document stores.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let id = try container.decode(String.self)
        guard let path = RuntimePath(id: id) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(id)\" is not a path id such as v1-to-v2")
        }
        self = path
    }

    /// Stores the id.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(id)
    }
}

extension RuntimeVersion {
    /// The runtime as a folder and report name: `iOS-15.0`.
    public var slug: String { "iOS-\(major).\(minor)" }

    /// Parses a ``slug`` exactly (`iOS-15.0`), nothing looser, so a build pair's id never reads as one.
    public init?(slug: String) {
        guard slug.hasPrefix("iOS-"), let version = RuntimeVersion(slug), version.slug == slug else { return nil }
        self = version
    }

    /// Parses `--runtimes`: runtimes separated by commas, such as `iOS 12.4,iOS 15.0,iOS 17.5`.
    /// - Returns: the runtimes, sorted oldest first.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` for an empty list, an entry that is not a
    ///   runtime, or a runtime named twice.
    package static func parseList(_ text: String, field: GateField = .runtimes) throws(GateError) -> [RuntimeVersion] {
        var runtimes: [RuntimeVersion] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let runtime = RuntimeVersion(String(entry)) else {
                throw .invalidValue(
                    field: field, value: text, reason: "holds \"\(entry)\", which is not an iOS runtime such as \"iOS 17.5\"")
            }
            if runtimes.contains(runtime) { throw .invalidValue(field: field, value: text, reason: "names \(runtime) twice") }
            runtimes.append(runtime)
        }
        return runtimes.sorted()
    }
}
