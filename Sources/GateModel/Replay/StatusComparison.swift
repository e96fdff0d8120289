import FileUtility
import Foundation
import UpgradeContract

/// The comparison `replay` makes: every status file (`paths/**/status/*.json`) of an archived run
/// against the replay's, byte for byte, with the JSON fields that differ for each file that does.
///
/// Only status files are compared. Logs (free-form app output, which the status-file contract does
/// not make deterministic), timings.json (wall times) and the verdict files (they follow from the
/// status files) are not (docs/architecture.md, "Artifacts": timings go to their own file, which replay does not compare).
package struct StatusComparison: Equatable, Sendable {
    /// One JSON field whose value differs; a nil side means the field is absent there.
    struct FieldDifference: Equatable, Sendable, CustomStringConvertible {
        /// The field's path, such as `operations[3].status`; empty for the whole document.
        var field: String
        /// The archived value as compact JSON, or nil when absent.
        var archived: String?
        /// The replay's value as compact JSON, or nil when absent.
        var replay: String?

        /// `operations[3].status: archived -25300, replay 0`.
        var description: String {
            let name = field.isEmpty ? "(document)" : field
            return "\(name): archived \(archived ?? "(absent)"), replay \(replay ?? "(absent)")"
        }
    }

    /// One status file present on both sides whose bytes differ.
    struct FileDifference: Equatable, Sendable {
        /// The path relative to the run folder: `paths/v1-to-v2/upgrade/status/03-v2-verify.json`.
        var file: String
        /// The fields that differ; empty when only the formatting differs.
        var fields: [FieldDifference]
        /// Why the fields are not listed (a side is not JSON, or holds a seeded secret), if they are not.
        var note: String?
    }

    /// How many status files exist on both sides.
    var compared: Int
    /// The files present on both sides whose bytes differ, sorted by path.
    var differing: [FileDifference]
    /// Status files only the archived run has.
    var onlyInArchived: [String]
    /// Status files only the replay has.
    var onlyInReplay: [String]

    /// Whether every status file is on both sides with the same bytes.
    package var isIdentical: Bool { differing.isEmpty && onlyInArchived.isEmpty && onlyInReplay.isEmpty }

    /// Compares the status files of the run folders `archived` and `replay`.
    /// - Parameter secrets: the run's seeded secrets; a differing file that holds one (in any encoding
    ///   the leak scan knows) has its fields named but its values withheld, so a replay report never
    ///   copies a leaked secret into a CI log.
    /// - Throws: ``GateError`` when a folder cannot be listed.
    package static func compare(archived: String, replay: String, secrets: [Secret] = []) throws(GateError) -> StatusComparison {
        let old = try statusFiles(in: archived)
        let new = try statusFiles(in: replay)
        let both = old.intersection(new).sorted()
        var differing: [FileDifference] = []
        var leaking: Set<String>?
        for file in both {
            let left = FileManager.default.contents(atPath: archived + "/" + file)
            let right = FileManager.default.contents(atPath: replay + "/" + file)
            guard let left, let right else {
                differing.append(
                    FileDifference(
                        file: file, fields: [], note: "cannot be read on the \(left == nil ? "archived" : "replay") side"))
                continue
            }
            if left == right { continue }
            if leaking == nil { leaking = try filesHoldingSecrets(archived: archived, replay: replay, secrets: secrets) }
            differing.append(difference(file: file, left, right, withholdValues: leaking!.contains(file)))
        }
        return StatusComparison(
            compared: both.count, differing: differing,
            onlyInArchived: old.subtracting(new).sorted(), onlyInReplay: new.subtracting(old).sorted())
    }

    /// Every `paths/<path>/<scenario>/status/<name>.json` under `folder` (with the runtime's folder
    /// first in a matrix, `paths/iOS-15.0/<path>/...`), relative to it.
    static func statusFiles(in folder: String) throws(GateError) -> Set<String> {
        let root = folder + "/" + ArtifactLayout.paths
        guard FileManager.default.fileExists(atPath: root) else { return [] }
        guard access(root, R_OK) == 0 else { throw .unreadable(path: root, reason: "cannot list the folder") }
        var files = Set<String>()
        // Every entry, as Foundation's enumerator listed them (one readdir walk: a gate's paths/
        // holds thousands).
        for entry in FileTree.entries(under: root) {
            let relative = entry.relative
            let parts = relative.split(separator: "/")
            let matrix = parts.count == 5 && RuntimeVersion(slug: String(parts[0])) != nil
            if ArtifactLayout.isStatusFile(parts, matrix: matrix) {
                files.insert(ArtifactLayout.paths + "/" + relative)
            }
        }
        return files
    }

    /// The lines a person reads: `identical`, or each difference and a count.
    package var report: [String] {
        if isIdentical { return ["identical"] }
        var lines: [String] = []
        for file in differing {
            lines.append("differs: \(file.file)")
            if let note = file.note { lines.append("  (\(note))") }
            if file.fields.isEmpty && file.note == nil {
                lines.append("  (the JSON is equal; only the bytes' formatting differs)")
            }
            lines += file.fields.map { "  \($0)" }
        }
        lines += onlyInArchived.map { "only in archived: \($0)" }
        lines += onlyInReplay.map { "only in replay: \($0)" }
        lines.append(
            "\(differing.count) of \(compared) status files differ; \(onlyInArchived.count) only in archived, \(onlyInReplay.count) only in replay"
        )
        return lines
    }

    private static func difference(file: String, _ left: Data, _ right: Data, withholdValues: Bool) -> FileDifference {
        let decoder = JSONDecoder()
        guard let old = try? decoder.decode(JSONValue.self, from: left) else {
            return FileDifference(file: file, fields: [], note: "the archived file is not JSON")
        }
        guard let new = try? decoder.decode(JSONValue.self, from: right) else {
            return FileDifference(file: file, fields: [], note: "the replay's file is not JSON")
        }
        var fields: [FieldDifference] = []
        JSONValue.diff(old, new, at: "", into: &fields)
        if withholdValues {
            fields = fields.map {
                FieldDifference(field: $0.field, archived: $0.archived.map { _ in "…" }, replay: $0.replay.map { _ in "…" })
            }
            return FileDifference(
                file: file, fields: fields, note: "values withheld: a side holds a seeded secret; see scan-secrets")
        }
        return FileDifference(file: file, fields: fields, note: nil)
    }

    private static func filesHoldingSecrets(archived: String, replay: String, secrets: [Secret]) throws(GateError) -> Set<String>
    {
        guard !secrets.isEmpty else { return [] }
        var files = Set<String>()
        for folder in [archived, replay] where FileManager.default.fileExists(atPath: folder + "/" + ArtifactLayout.paths) {
            let scan = try SecretScanner.scan(directory: folder + "/" + ArtifactLayout.paths, secrets: secrets)
            files.formUnion(scan.leaks.map { ArtifactLayout.paths + "/" + $0.file })
        }
        return files
    }
}

/// A JSON document as a value, for field-by-field comparison (numbers keep their text form).
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Compact JSON text, keys sorted; long values are shortened.
    var text: String {
        let full: String
        switch self {
        case .null: full = "null"
        case .bool(let value): full = value ? "true" : "false"
        case .integer(let value): full = String(value)
        case .number(let value): full = String(value)
        case .string(let value):
            let data = try? JSONEncoder().encode(value)
            full = data.map { String(decoding: $0, as: UTF8.self) } ?? "\"?\""
        case .array(let values): full = "[" + values.map(\.text).joined(separator: ",") + "]"
        case .object(let members):
            full = "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!.text)" }.joined(separator: ",") + "}"
        }
        return full.count > 120 ? String(full.prefix(117)) + "..." : full
    }

    /// Appends the leaf fields where `old` and `new` differ.
    static func diff(
        _ old: JSONValue?, _ new: JSONValue?, at field: String, into differences: inout [StatusComparison.FieldDifference]
    ) {
        switch (old, new) {
        case (.object(let left)?, .object(let right)?):
            for key in Set(left.keys).union(right.keys).sorted() {
                diff(left[key], right[key], at: field.isEmpty ? key : field + "." + key, into: &differences)
            }
        case (.array(let left)?, .array(let right)?):
            for index in 0..<max(left.count, right.count) {
                diff(
                    index < left.count ? left[index] : nil, index < right.count ? right[index] : nil,
                    at: field + "[\(index)]", into: &differences)
            }
        default:
            if old != new { differences.append(.init(field: field, archived: old?.text, replay: new?.text)) }
        }
    }
}
