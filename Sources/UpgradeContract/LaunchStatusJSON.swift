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
        out.key("build")
        out.string(build)
        out.key("caseID")
        out.string(caseID)
        out.key("errors")
        Self.write(errors, &out)
        out.key("formatVersion")
        out.int(formatVersion)
        out.key("items")
        Self.write(items, &out)
        if let legacy {
            out.key("legacy")
            out.open(UInt8(ascii: "{"))
            out.key("archive")
            out.bool(legacy.archive)
            out.key("artefacts")
            out.strings(legacy.artefacts)
            out.key("preferenceKeys")
            out.strings(legacy.preferenceKeys)
            out.close(UInt8(ascii: "}"))
        }
        if let migration {
            out.key("migration")
            out.open(UInt8(ascii: "{"))
            if let from = migration.from {
                out.key("from")
                out.int(from)
            }
            if let reason = migration.reason {
                out.key("reason")
                out.string(reason)
            }
            out.key("state")
            out.string(migration.state.rawValue)
            if let to = migration.to {
                out.key("to")
                out.int(to)
            }
            out.close(UInt8(ascii: "}"))
        }
        out.key("mode")
        out.string(mode.rawValue)
        out.key("runtime")
        out.string(runtime)
        if let schemaVersion {
            out.key("schemaVersion")
            out.int(schemaVersion)
        }
        if let startup {
            out.key("startup")
            Self.write(startup, &out)
        }
        if let sweep {
            out.key("sweep")
            out.string(sweep.rawValue)
        }
        if let textReadsOfBytes {
            out.key("textReadsOfBytes")
            out.strings(textReadsOfBytes)
        }
        out.close(UInt8(ascii: "}"))
        return out.bytes
    }

    private static func write(_ checks: [ItemCheck], _ out: inout JSONOutput) {
        out.open(UInt8(ascii: "["))
        for check in checks {
            out.element()
            out.open(UInt8(ascii: "{"))
            out.key("location")
            out.string(check.location.rawValue)
            out.key("name")
            out.string(check.name)
            out.key("operation")
            out.string(check.operation)
            out.key("result")
            out.string(check.result.rawValue)
            out.key("runtime")
            out.string(check.runtime)
            out.key("status")
            out.int(Int(check.status))
            out.close(UInt8(ascii: "}"))
        }
        out.close(UInt8(ascii: "]"))
    }
}
