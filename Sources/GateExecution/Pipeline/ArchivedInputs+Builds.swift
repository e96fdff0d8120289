import Foundation
import GateModel
import SimDevice
import UpgradeContract

/// What the archived inputs record does with builds on disk: where their files go, copying them,
/// and the catalog that finds them again in an artifacts folder.
extension ArchivedInputs {
    /// Where the files of `builds`, pinned as `pins`, go.
    /// - Throws: ``GateError/unreadable(path:reason:)`` for a manifest that cannot be read.
    package static func plan(
        for builds: [String: Build], pins: [String: RunInputs.BuildFiles]
    ) throws(GateError) -> ArchivedInputs {
        var entries: [String: BuildEntry] = [:]
        for (id, build) in builds {
            let folder = "\(folderName)/builds/\(id)/"
            var extensions: [String: ExtensionEntry] = [:]
            for item in build.extensions {
                guard let pinned = pins[id]!.extensions?[item.name] else { continue }
                extensions[item.name] = ExtensionEntry(
                    entitlements: folder + item.declaration.entitlements,
                    executable: "\(folderName)/executables/" + pinned.executable)
            }
            entries[id] = BuildEntry(
                manifest: folder + BuildManifest.fileName,
                manifestSHA256: try GateHash.hexOfFile(atPath: build.folder + "/" + BuildManifest.fileName),
                entitlements: folder + build.manifest.entitlements,
                executable: "\(folderName)/executables/" + pins[id]!.executable,
                extensions: extensions.isEmpty ? nil : extensions)
        }
        return ArchivedInputs(formatVersion: currentFormatVersion, builds: entries)
    }

    /// Copies the files of `builds` into `out` as this record says.
    /// - Throws: ``GateError/io(path:doing:cause:)`` naming the file.
    package func write(_ builds: [String: Build], to out: String) throws(GateError) {
        var written: Set<String> = []
        for id in self.builds.keys.sorted() {
            guard let entry = self.builds[id], let build = builds[id] else { continue }
            var files = [
                (build.folder + "/" + BuildManifest.fileName, entry.manifest), (build.entitlementsPath, entry.entitlements),
                (build.executablePath, entry.executable),
            ]
            var executables: Set<String> = [entry.executable]
            for item in build.extensions {
                guard let archived = entry.extensions?[item.name] else { continue }
                files += [(item.entitlementsPath, archived.entitlements), (item.executablePath, archived.executable)]
                executables.insert(archived.executable)
            }
            for (source, target) in files where written.insert(target).inserted {
                let path = out + "/" + target
                try ArtifactFile.createFolder((path as NSString).deletingLastPathComponent)
                guard let data = FileManager.default.contents(atPath: source) else {
                    throw .unreadable(path: source, reason: "cannot be read")
                }
                try ArtifactFile.write(data, to: path, atomically: true)
                if executables.contains(target) { try ArtifactFile.setMode(0o755, of: path) }
            }
        }
    }

    /// The catalog that finds every build in `folder/inputs/`, after checking that each archived
    /// file is there with the digest run.json pins.
    /// - Throws: ``GateError/malformed(path:reason:)`` or ``GateError/unreadable(path:reason:)`` (exit 2)
    ///   naming the first file that is missing, tampered with or of a newer layout, before anything runs.
    package func catalog(
        in folder: String, pins: [String: RunInputs.BuildFiles], runFile: String
    ) throws(GateError) -> BuildCatalog {
        let executables = try verifiedExecutables(in: folder, pins: pins, runFile: runFile)
        return BuildCatalog(
            folder: Self.buildsFolder(in: folder), productsFolder: Self.executablesFolder(in: folder), executables: executables)
    }
}
