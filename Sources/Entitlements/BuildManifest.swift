import Foundation

/// The fields of a build folder's `build.json` that entitlements need; every other field is ignored.
///
/// The full manifest belongs to the builds module; this file is the only place that reads it here, so a change in
/// its format touches this file alone. Expected shape:
/// `{"id": "v2", "bundleID": "com.example.ledger", "team": "Q7X2K9M4TD", "entitlements": "Ledger.entitlements"}`
/// where `team` is optional and `entitlements` is a path relative to the build folder (any readable kind). An optional
/// `"settings": {"BASE_BUNDLE_ID": "com.example"}` gives the build settings its `.entitlements` file refers to.
public struct BuildManifest: Sendable, Equatable, Decodable {
    /// The build id, which is also the folder's name.
    public let id: String
    /// The bundle identifier.
    public let bundleID: String
    /// The Team ID that signs the build, when known.
    public let team: String?
    /// The entitlements file, relative to the build folder.
    public let entitlements: String
    /// Build settings for the entitlements file's variables, as the build's Xcode project defines them.
    public let settings: [String: String]?

    /// The manifest's file name inside a build folder.
    public static let fileName = "build.json"

    /// Makes a manifest (for tests and for callers that hold one already).
    public init(id: String, bundleID: String, team: String?, entitlements: String, settings: [String: String]? = nil) {
        self.id = id
        self.bundleID = bundleID
        self.team = team
        self.entitlements = entitlements
        self.settings = settings
    }

    /// Reads `<folder>/build.json`.
    /// - Throws: naming the manifest and the missing or mistyped field.
    public static func read(folder: String) throws(EntitlementsError) -> BuildManifest {
        let path = (folder as NSString).appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EntitlementsError(path, "cannot read the build manifest")
        }
        do {
            return try JSONDecoder().decode(BuildManifest.self, from: data)
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
