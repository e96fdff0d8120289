import Foundation
import Testing

@testable import AppHarness

/// The installed build.json's path found with `realpath` against the `URL` calls it replaced.
@Suite struct InstalledManifestPathTests {
    static func byURL(_ argument: String) -> String {
        URL(fileURLWithPath: argument).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("build.json").path
    }

    @Test("beside the executable, symbolic links resolved, as URL's resolvingSymlinksInPath gives it")
    func sameAsURL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-path-\(getpid())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App.app"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let executable = folder.appendingPathComponent("App.app/App").path
        #expect(FileManager.default.createFile(atPath: executable, contents: Data()))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/link", withDestinationPath: executable)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/dir", withDestinationPath: folder.path + "/App.app")
        let cases = [
            CommandLine.arguments.first ?? "", executable, folder.path + "/link", folder.path + "/dir/App",
            folder.path + "/App.app/../App.app/App", folder.path + "/missing/App", "/", "relative-missing",
        ]
        for argument in cases {
            #expect(Harness.installedManifestPath(executable: argument) == Self.byURL(argument), "\(argument)")
        }
    }
}
