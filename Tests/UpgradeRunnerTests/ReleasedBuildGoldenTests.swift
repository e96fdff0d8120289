import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// The released sample builds' behaviour, pinned: every status file v1, v2 and v3 write in every
/// launch mode (seed, seedMalformed, launch, verify, cleanup) under a fixed case id, against golden
/// files kept in `Golden/released/`. A change to shared code that alters what a shipped release
/// does (as a released binary never would) fails here; re-record only on purpose, with
/// `RECORD_SNAPSHOTS=1`.
///
/// Four paths put each build in both roles: v1 to v2 and v2 to v3, and the downgrades v3 to v1 and
/// v3 to v2 (which fail their gates; only their status files matter here: v2 meeting v3's schema
/// answers `tooNew` and changes nothing). Each runs upgrade, malformed and
/// cleanup: the old build seeds and seeds malformed, the new one launches, verifies and cleans up.
@Suite("Released builds' status files, against golden files")
struct ReleasedBuildGoldenTests {
    static let paths = [("v1", "v2"), ("v2", "v3"), ("v3", "v1"), ("v3", "v2")]
    static let folder = Golden.folder(of: #filePath) + "/Golden/released"

    @Test("v1, v2 and v3 write the same status files in every mode as when they were released")
    func statusFilesMatchGolden() throws {
        let cli = try CLI("golden")
        var names: [String] = []
        for (old, new) in Self.paths {
            let out = cli.directory.file("\(old)-to-\(new)")
            let result = cli.run(
                [
                    "run", "--from", old, "--to", new, "--scenario", "upgrade,malformed,cleanup", "--case-id", "golden",
                    "--out", out, "--jobs", "2",
                ], environment: ["UPGRADE_RUNNER_BUILDS": sampleBuilds])
            #expect([0, 1].contains(result.code), "\(old) to \(new): \(result.error)")
            for case let relative as String in FileManager.default.enumerator(atPath: out + "/paths") ?? .init()
            // The second clock's files are honest-status's to compare with these, byte for byte.
            where relative.contains("/status/") && relative.hasSuffix(".json") && !relative.contains("/attempts/")
                && !relative.contains("/" + ArtifactLayout.clockShiftedFolder + "/")
            {
                names.append(relative)
                let actual = try String(contentsOfFile: out + "/paths/" + relative, encoding: .utf8)
                let problem = Golden.compare(actual, toFileAt: Self.folder + "/" + relative)
                #expect(problem == nil, "\(problem ?? "")")
            }
        }
        // Every mode of every build is pinned, and no status file appears or goes unnoticed.
        let index = names.sorted().joined(separator: "\n") + "\n"
        #expect(Golden.compare(index, toFileAt: Self.folder + "/index.txt") == nil)
        for build in ["v1", "v2", "v3"] {
            for mode in LaunchMode.allCases.map(\.rawValue) {
                #expect(names.contains { $0.hasSuffix("-\(build)-\(mode).json") }, "no \(mode) status file of \(build)")
            }
        }
    }
}
