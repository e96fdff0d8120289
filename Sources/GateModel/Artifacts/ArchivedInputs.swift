import FileUtility
import Foundation
import UpgradeContract

/// run.json's `archivedInputs`: where `<out>/inputs/` (written by `gate --archive-inputs`) holds the
/// files of every build the run used, so that `replay` needs nothing but the artifacts folder.
///
/// The layout, every path relative to the artifacts folder:
/// ```
/// inputs/builds/<id>/build.json          the manifest, byte for byte as the builds folder held it
/// inputs/builds/<id>/<entitlements>      the entitlements file the manifest names
/// inputs/builds/<id>/<extension's>       each app extension's own entitlements file
/// inputs/executables/<sha256>            each executable once, named by its SHA-256 (builds, and
///                                        an app and its extensions, that share an executable share the file)
/// ```
/// Executables are stored as they are; a bundle of the folder (``RunBundle``) compresses them with zlib.
/// The entitlements', executables' and manifests' digests are run.json's `buildFiles`; the manifest's is here too.
public struct ArchivedInputs: Codable, Equatable, Sendable {
    /// One build's archived files.
    public struct BuildEntry: Codable, Equatable, Sendable {
        /// The manifest's path, `inputs/builds/<id>/build.json`.
        public package(set) var manifest: String
        /// Lower-case hex SHA-256 of the manifest.
        public package(set) var manifestSHA256: String
        /// The entitlements file's path, `inputs/builds/<id>/<name>`.
        public package(set) var entitlements: String
        /// The executable's path, `inputs/executables/<sha256>`.
        public package(set) var executable: String
        /// Extension name to its archived files, for each app extension the build declares; nil (left
        /// out) for a build without.
        public package(set) var extensions: [String: ExtensionEntry]?

        package init(
            manifest: String, manifestSHA256: String, entitlements: String, executable: String,
            extensions: [String: ExtensionEntry]? = nil
        ) {
            self.manifest = manifest
            self.manifestSHA256 = manifestSHA256
            self.entitlements = entitlements
            self.executable = executable
            self.extensions = extensions
        }
    }

    /// One app extension's archived files; their digests are run.json's `buildFiles.<id>.extensions`.
    public struct ExtensionEntry: Codable, Equatable, Sendable {
        /// Its entitlements file's path, `inputs/builds/<id>/<name>`.
        public package(set) var entitlements: String
        /// Its executable's path, `inputs/executables/<sha256>`.
        public package(set) var executable: String

        package init(entitlements: String, executable: String) {
            self.entitlements = entitlements
            self.executable = executable
        }
    }

    /// The version of the inputs folder's layout; a newer one is refused, not guessed at.
    public package(set) var formatVersion: Int
    /// Build id to its files.
    public package(set) var builds: [String: BuildEntry]

    package init(formatVersion: Int, builds: [String: BuildEntry]) {
        self.formatVersion = formatVersion
        self.builds = builds
    }

    /// The current layout version.
    public static let currentFormatVersion = 1
    /// The folder under the artifacts folder.
    public static let folderName = "inputs"

    /// The executable of every build in `folder/inputs/`, by build id (and of each app extension, by
    /// `<build id>/<extension name>`, as ``BuildCatalog`` looks it up), after checking that each
    /// archived file is there with the digest run.json pins (the execution side makes a catalog of
    /// them: ``buildsFolder(in:)`` and ``executablesFolder(in:)``).
    /// - Throws: ``GateError/malformed(path:reason:)`` or ``GateError/unreadable(path:reason:)`` (exit 2)
    ///   naming the first file that is missing, tampered with or of a newer layout, before anything runs.
    package func verifiedExecutables(
        in folder: String, pins: [String: RunInputs.BuildFiles], runFile: String
    ) throws(GateError) -> [String: String] {
        if formatVersion > Self.currentFormatVersion {
            throw .malformed(
                path: runFile,
                reason:
                    "field \"archivedInputs.formatVersion\" is \(formatVersion), newer than this runner reads (\(Self.currentFormatVersion))"
            )
        }
        var executables: [String: String] = [:]
        for id in builds.keys.sorted() {
            let entry = builds[id]!
            guard let pin = pins[id] else {
                throw .malformed(
                    path: runFile, reason: "field \"archivedInputs.builds\" names build \"\(id)\", which buildFiles does not")
            }
            let expectedManifest = "\(Self.folderName)/builds/\(id)/\(BuildManifest.fileName)"
            let prefix = "\(Self.folderName)/builds/\(id)/"
            func inBuildFolder(_ path: String) -> Bool {
                let name = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : ""
                return !name.isEmpty && !name.contains("/") && !name.hasPrefix(".")
            }
            func executable(_ digest: String) -> String { "\(Self.folderName)/executables/\(digest)" }
            guard entry.manifest == expectedManifest, inBuildFolder(entry.entitlements),
                entry.executable == executable(pin.executable)
            else {
                throw .malformed(path: runFile, reason: "field \"archivedInputs.builds.\(id)\" points outside the inputs layout")
            }
            var files = [
                (entry.manifest, entry.manifestSHA256), (entry.entitlements, pin.entitlements),
                (entry.executable, pin.executable),
            ]
            // Each app extension's entitlements and executable, against run.json's pins of them.
            let archivedExtensions = entry.extensions ?? [:]
            if Set(archivedExtensions.keys) != Set((pin.extensions ?? [:]).keys) {
                throw .malformed(
                    path: runFile,
                    reason: "field \"archivedInputs.builds.\(id).extensions\" does not name the extensions buildFiles pins")
            }
            for name in archivedExtensions.keys.sorted() {
                let item = archivedExtensions[name]!, pinned = pin.extensions![name]!
                guard inBuildFolder(item.entitlements), item.executable == executable(pinned.executable) else {
                    throw .malformed(
                        path: runFile,
                        reason: "field \"archivedInputs.builds.\(id).extensions.\(name)\" points outside the inputs layout")
                }
                files += [(item.entitlements, pinned.entitlements), (item.executable, pinned.executable)]
            }
            for (relative, expected) in files {
                let path = folder + "/" + relative
                guard FileManager.default.fileExists(atPath: path) else {
                    throw .unreadable(path: path, reason: "is missing from the archived inputs (a truncated inputs folder)")
                }
                let found = try GateHash.hexOfFile(atPath: path)
                guard found == expected else {
                    throw .malformed(
                        path: path,
                        reason:
                            "has sha256 \(found.prefix(12))… but run.json archived \(expected.prefix(12))…: the archived inputs were changed"
                    )
                }
            }
            var located = [(id, entry.executable)]
            for name in archivedExtensions.keys.sorted() {
                located.append((id + "/" + name, archivedExtensions[name]!.executable))
            }
            for (key, relative) in located {
                let path = folder + "/" + relative
                if !FileManager.default.isExecutableFile(atPath: path) { try ArtifactFile.setMode(0o755, of: path) }
                executables[key] = path
            }
        }
        return executables
    }

    /// The archived builds' folder (`<id>/build.json` each) in the artifacts folder `folder`.
    package static func buildsFolder(in folder: String) -> String { folder + "/" + folderName + "/builds" }

    /// The archived executables' folder in the artifacts folder `folder`.
    package static func executablesFolder(in folder: String) -> String { folder + "/" + folderName + "/executables" }
}
