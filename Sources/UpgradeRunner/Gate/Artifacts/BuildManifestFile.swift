import Entitlements

/// The manifest's file name inside a build folder, as Entitlements (its reader) owns it; a file of
/// its own because SimDevice's manifest type has the same name.
enum BuildManifestFile {
    static let name = BuildManifest.fileName
}
