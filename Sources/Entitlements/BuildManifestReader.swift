import Foundation
import UpgradeContract

extension BuildManifest.Signing {
    /// Reads the signing fields of `<folder>/build.json` (``BuildManifest`` owns the file and its fields; every
    /// other field is ignored here, so a build folder for the diff needs only `id`, `bundleID` and `entitlements`).
    /// - Throws: naming the manifest and the missing or mistyped field.
    public static func read(folder: String) throws(EntitlementsError) -> BuildManifest.Signing {
        let path = (folder as NSString).appendingPathComponent(BuildManifest.fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EntitlementsError(path, "cannot read the build manifest")
        }
        if let key = DuplicateKeys.first(in: data) { throw EntitlementsError(path, DuplicateKeys.reason(key)) }
        do {
            return try JSONDecoder().decode(BuildManifest.Signing.self, from: data)
        } catch let DecodingError.keyNotFound(key, _) {
            throw EntitlementsError(path, "field \"\(key.stringValue)\" is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw EntitlementsError(
                path, "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            throw EntitlementsError(path, "field \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" is null")
        } catch {
            throw EntitlementsError(path, "not valid JSON")
        }
    }
}
