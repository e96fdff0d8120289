/// A deterministic slice of a gate, `--shard i/n`: the i-th of n, counting from 1.
///
/// The plan's (path, scenario) units are sorted (path id, then scenario in declaration order (docs/architecture.md's table)) and
/// dealt round-robin: unit k (from 0) belongs to shard `k % n + 1`. Round-robin keeps shards within
/// one unit of each other in size, and the same inputs give every machine the same slices.
public struct ShardSpec: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Which slice, from 1.
    public let index: Int
    /// How many slices.
    public let count: Int

    /// The i-th of n shards.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` unless 1 <= index <= count.
    public init(index: Int, count: Int, field: GateField = .shard) throws(GateError) {
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidValue(field: field, value: "\(index)/\(count)", reason: "must be I/N with 1 <= I <= N")
        }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`, such as `2/5`: two decimal integers with 1 <= i <= n.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming `field` and the text.
    public init(parsing text: String, field: GateField = .shard) throws(GateError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        func number(_ part: Substring) -> Int? {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(part)
        }
        guard parts.count == 2, let index = number(parts[0]), let count = number(parts[1]) else {
            throw .invalidValue(field: field, value: text, reason: "is not I/N (two whole numbers, such as 1/4)")
        }
        guard count >= 1, (1...count).contains(index) else {
            throw .invalidValue(field: field, value: text, reason: "must be I/N with 1 <= I <= N")
        }
        self.index = index
        self.count = count
    }

    /// `i/n`.
    public var description: String { "\(index)/\(count)" }

    /// Whether the unit at `offset` (from 0) of the sorted plan belongs to this shard.
    public func contains(offset: Int) -> Bool { offset % count == index - 1 }

    /// Every shard of the same count, 1/n through n/n.
    public var siblings: [ShardSpec] { (1...count).map { try! ShardSpec(index: $0, count: count) } }

    /// Decodes `"i/n"`.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(parsing: text, field: .named("shard")) } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// Encodes `"i/n"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
