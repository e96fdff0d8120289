import Foundation
@testable import GateModel
import GateTestSupport
import SimRuntime
import TestSupport

/// The repository's builds folder, for rows that need the mutant catalogue.
enum RunFoldersPath {
    static let repositoryBuilds = Golden.folder(of: #filePath) + "/../../builds"
}

/// A folder standing for a user's machine: HOME, TMPDIR, the devices root, builds and products.
final class Sandbox: @unchecked Sendable {
    let directory: TemporaryDirectory
    var root: String { directory.path }
    var builds: String { path("builds") }
    var temporary: String { path("tmp") }
    private var lockHolders: [String] = []

    init() throws {
        directory = try TemporaryDirectory("bad-input")
        for folder in ["builds", "tmp", "home"] { try self.folder(folder) }
    }

    deinit { for folder in lockHolders { OutputFolder.release(folder) } }

    func path(_ relative: String) -> String { root + "/" + relative }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    func write(_ relative: String, _ text: String) throws {
        try folder((relative as NSString).deletingLastPathComponent)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path(relative)))
    }

    /// Copies the repository's build `id` into the sandbox's builds folder, its manifest edited by `edit`.
    func copyBuild(_ id: String, edit: ((inout [String: Any]) -> Void)? = nil) throws {
        let source = RunFoldersPath.repositoryBuilds + "/" + id
        try FileManager.default.copyItem(atPath: source, toPath: builds + "/" + id)
        guard let edit else { return }
        let file = builds + "/" + id + "/build.json"
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as! [String: Any]
        edit(&manifest)
        try JSONSerialization.data(withJSONObject: manifest, options: [.prettyPrinted, .sortedKeys])
            .write(to: URL(fileURLWithPath: file))
    }

    /// A finished run's folder at `relative` (no app runs).
    func finishedRun(_ relative: String) throws {
        try RunFolders.write(SampleGate.inputs(), at: path(relative))
    }

    /// Takes the in-progress lock of `relative` in this process, as a live run would, until the sandbox goes.
    func holdLock(_ relative: String) {
        let folder = path(relative)
        try? GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try! SampleGate.inputs().plan(), at: folder, force: true)
        lockHolders.append(folder)
    }

    /// Runs the built `upgrade-runner` with `words`, everything it may touch inside the sandbox.
    func run(_ words: [String], devicesRoot: String? = "devices") throws -> ProcessRun {
        var environment = [
            "HOME": path("home"), "TMPDIR": temporary, "UPGRADE_RUNNER_BUILDS": builds,
            "UPGRADE_RUNNER_PRODUCTS": BuiltProducts.directory.path, "PATH": "/usr/bin:/bin", "NO_COLOR": "1",
        ]
        if let devicesRoot { environment["UPGRADE_RUNNER_DEVICES"] = path(devicesRoot) }
        return try ProcessRun.run(BuiltProducts.executable("upgrade-runner"), words, environment: environment)
    }

    func mode(of relative: String) throws -> mode_t {
        var info = stat()
        guard lstat(path(relative), &info) == 0 else { throw CocoaError(.fileNoSuchFile) }
        return info.st_mode & 0o7777
    }

    /// Every path under the sandbox, relative, with its kind, mode, size and content digest (a
    /// link: its target), no link followed.
    func listing() throws -> [String: String] {
        var result: [String: String] = [:]
        func walk(_ relative: String) {
            let full = relative.isEmpty ? root : root + "/" + relative
            var info = stat()
            guard lstat(full, &info) == 0 else { return }
            let mode = String(info.st_mode & 0o7777, radix: 8)
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if !relative.isEmpty { result[relative] = "dir \(mode)" }
                for name in ((try? FileManager.default.contentsOfDirectory(atPath: full)) ?? []) {
                    walk(relative.isEmpty ? name : relative + "/" + name)
                }
            case S_IFLNK:
                result[relative] = "link -> " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
            case S_IFREG:
                result[relative] = "file \(mode) \(info.st_size) \(SHA256.hexOfFile(atPath: full) ?? "?")"
            default:
                result[relative] = "other \(mode)"
            }
        }
        walk("")
        return result
    }

    /// The paths whose entry differs between two listings, sorted.
    static func difference(_ before: [String: String], _ after: [String: String]) -> [String] {
        Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }.sorted()
    }

    static func entries(_ folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }
}

extension Sandbox {
    /// Sets `key` of the first declared secret in a build.json being edited (a row's one bad field).
    static func setFirstSecret(_ manifest: inout [String: Any], _ key: String, _ value: Any) {
        var keeps = manifest["keeps"] as! [String: Any]
        var secrets = keeps["secrets"] as! [[String: Any]]
        secrets[0][key] = value
        keeps["secrets"] = secrets
        manifest["keeps"] = keeps
    }
}
