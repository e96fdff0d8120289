import Foundation

/// The status file's JSON without `JSONEncoder` (``JSONOutput``): the bytes
/// `JSONEncoder` writes for ``LaunchStatus`` with `.sortedKeys`, `.prettyPrinted` and
/// `.withoutEscapingSlashes`, as the synthesized `Codable` conformances spell the fields (a nil
/// optional left out). Keys are written in sorted order by hand: a field added to any of these
/// types must be added here, where `LaunchStatusJSONTests` finds it missing (it compares with
/// `JSONEncoder` and counts the types' stored properties).
extension LaunchStatus {
    /// The JSON of this status as it is (not sorted), without the final newline.
    func json() -> [UInt8] {
        var out = JSONOutput(pretty: true)
        out.open(UInt8(ascii: "{"))
        out.field("build", build)
        out.field("caseID", caseID)
        out.key("errors")
        Self.write(errors, &out)
        out.field("formatVersion", formatVersion)
        out.key("items")
        Self.write(items, &out)
        if let legacy {
            out.key("legacy")
            out.open(UInt8(ascii: "{"))
            out.key("archive")
            out.bool(legacy.archive)
            out.field("artefacts", legacy.artefacts)
            out.field("preferenceKeys", legacy.preferenceKeys)
            out.close(UInt8(ascii: "}"))
        }
        if let migration {
            out.key("migration")
            out.open(UInt8(ascii: "{"))
            out.field("from", migration.from)
            out.field("reason", migration.reason)
            out.field("state", migration.state.rawValue)
            out.field("to", migration.to)
            out.close(UInt8(ascii: "}"))
        }
        out.field("mode", mode.rawValue)
        out.field("runtime", runtime)
        out.field("schemaVersion", schemaVersion)
        if let startup {
            out.key("startup")
            Self.write(startup, &out)
        }
        out.field("sweep", sweep?.rawValue)
        out.field("textReadsOfBytes", textReadsOfBytes)
        out.close(UInt8(ascii: "}"))
        return out.bytes
    }

    private static func write(_ checks: [ItemCheck], _ out: inout JSONOutput) {
        out.open(UInt8(ascii: "["))
        for check in checks {
            out.element()
            out.open(UInt8(ascii: "{"))
            out.field("location", check.location.rawValue)
            out.field("name", check.name)
            out.field("operation", check.operation)
            out.field("result", check.result.rawValue)
            out.field("runtime", check.runtime)
            out.field("status", Int(check.status))
            out.close(UInt8(ascii: "}"))
        }
        out.close(UInt8(ascii: "]"))
    }
}
