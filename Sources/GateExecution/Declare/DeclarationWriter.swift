import Foundation
import GateModel
import UpgradeContract

/// Writes a draft `keeps` into a build.json, keeping every other field: the file is read as a JSON
/// object, its `keeps` replaced, and written back (sorted keys, pretty) through a temporary file
/// and a rename, so a reader never sees half a manifest.
package enum DeclarationWriter {
    package static func write(_ keeps: BuildDeclaration, into path: String) throws {
        guard let data = FileManager.default.contents(atPath: path),
            var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            throw GateError.malformed(path: path, reason: "is not a JSON object: declare --write leaves it as it is")
        }
        object["keeps"] = try JSONSerialization.jsonObject(with: GateJSON.encoder(pretty: false).encode(keeps))
        let bytes = try JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        let temporary = path + ".declare-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: bytes + Data("\n".utf8)),
            rename(temporary, path) == 0
        else {
            let cause = errno
            unlink(temporary)
            throw GateError.io(path: path, doing: "writing the draft declaration", cause: String(cString: strerror(cause)))
        }
    }
}
