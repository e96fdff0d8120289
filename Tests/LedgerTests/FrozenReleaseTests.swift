import Foundation
import LedgerRelease3
import SimRuntime
import Testing
import TestSupport

/// The released builds v1, v2 and v3 are frozen: each runs its `main.swift` (`Sources/LedgerV<N>`) and
/// the libraries of its release and the releases before it (`Sources/Releases/LedgerRelease<N>`), and
/// nothing of the live code in LedgerKit, which later builds and known-bad builds change.
///
/// Changing a released build is a new release (a new build, target and library), not an edit. The lock
/// `Sources/Releases/FROZEN.sha256` holds the SHA-256 of every frozen source (`sha256sum -c` reads it);
/// re-record it only on purpose, with `RECORD_FROZEN=1` (its own switch: re-recording the golden
/// status files never re-records the lock). The lock also covers each release's archived build
/// inputs (`builds/v<N>`: manifest and entitlements), which are part of what was released.
@Suite struct FrozenReleaseTests {
    /// The repository's root, found from this source file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The lock, relative to the root.
    static let lockPath = "Sources/Releases/FROZEN.sha256"

    @Test("every frozen source has the digest its lock records: none changed, was added or was removed")
    func sourcesMatchTheLock() throws {
        let actual = try FrozenReleases.digests(root: Self.root)
        #expect(actual.count >= 3 + 3, "the releases' sources and the three main.swift files")
        let lock = Self.root.appendingPathComponent(Self.lockPath)
        if FrozenReleases.recording {
            try FrozenReleases.lockText(actual).write(to: lock, atomically: true, encoding: .utf8)
            return
        }
        let recorded = FrozenReleases.parseLock(try String(contentsOf: lock, encoding: .utf8))
        for problem in FrozenReleases.problems(recorded: recorded, actual: actual) {
            Issue.record("\(problem) (a released build is frozen: a change is a new release, not an edit)")
        }
    }

    /// v3 writes its migration date through `InternetDate`, which lives in SimRuntime, outside the
    /// lock: these texts pin what the released v3 stores and reads, whatever that code becomes.
    @Test("v3's stored migration date is the text v3 was released with")
    func migrationDateTextIsFrozen() {
        // (the date written, its text, the second the text reads back as)
        let pinned: [(Double, String, Double)] = [
            (1_796_146_412, "2026-12-01T17:33:32Z", 1_796_146_412), (0, "1970-01-01T00:00:00Z", 0),
            (-0.0005, "1970-01-01T00:00:00Z", 0), (-0.0006, "1969-12-31T23:59:59Z", -1),
            (1_700_000_000.9995, "2023-11-14T22:13:21Z", 1_700_000_001),
            (1_700_000_000.9994, "2023-11-14T22:13:20Z", 1_700_000_000),
            (-2_695_407_721.5, "1884-08-02T03:37:58Z", -2_695_407_722), (4_102_444_800, "2100-01-01T00:00:00Z", 4_102_444_800),
        ]
        for (seconds, text, second) in pinned {
            let stamp = MigrationDate.encoded(Date(timeIntervalSince1970: seconds))
            #expect(String(decoding: stamp, as: UTF8.self) == text, "\(seconds)")
            #expect(MigrationDate.decoded(Data(text.utf8)) == Date(timeIntervalSince1970: second), "\(text)")
        }
        #expect(MigrationDate.decoded(Data("not a date".utf8)) == nil)
        #expect(MigrationDate.decoded(Data("2026-12-01".utf8)) == nil)
    }

    @Test("the lock comparison names each file that changed, was added or was removed")
    func lockComparisonNamesFiles() {
        let recorded = ["a.swift": "11", "b.swift": "22", "gone.swift": "33"]
        let actual = ["a.swift": "11", "b.swift": "99", "new.swift": "44"]
        #expect(
            FrozenReleases.problems(recorded: recorded, actual: actual) == [
                "b.swift: changed since the lock", "gone.swift: removed since the lock", "new.swift: added since the lock",
            ])
        #expect(FrozenReleases.parseLock(FrozenReleases.lockText(actual)) == actual, "the lock's text reads back")
    }

    @Test("no release library or released executable imports or depends on LedgerKit or a later release")
    func releasesDependOnlyOnEarlierOnes() throws {
        var problems: [String] = []
        for release in 1...FrozenReleases.count {
            for (path, text) in try FrozenReleases.sources(of: release, root: Self.root) {
                let allowed = FrozenReleases.allowedModules(release: release, executable: path.hasSuffix("main.swift"))
                problems += SwiftImports.modules(in: text).filter { !allowed.contains($0.module) }
                    .map { "\(path):\($0.line): imports \($0.module)" }
            }
        }
        problems += FrozenReleases.manifestProblems(try PackageDump.load(root: Self.root))
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the dependency check finds an import of LedgerKit, of a later release and a target's wrong dependency")
    func dependencyCheckFindsViolations() {
        let text = """
            import AppHarness
            @_exported import LedgerRelease3
            #if canImport(Security)
                import Security
            #endif
            import struct LedgerKit.LedgerParts
            """
        let allowed = FrozenReleases.allowedModules(release: 2, executable: false)
        #expect(
            SwiftImports.modules(in: text).filter { !allowed.contains($0.module) }.map(\.module) == [
                "LedgerRelease3", "LedgerKit",
            ])
        func target(
            _ name: String, _ type: String, path: String? = nil, exclude: [String] = [], _ dependencies: [String]
        )
            -> PackageDump.Target
        {
            PackageDump.Target(
                name: name, type: type, path: path, sources: nil, exclude: exclude,
                dependencies: dependencies.map { ["byName": [$0, nil]] })
        }
        let package = PackageDump(targets: [
            target("LedgerRelease1", "regular", path: "Sources/Releases/LedgerRelease1", ["AppHarness", "SimSecurity"]),
            target("LedgerRelease2", "regular", path: "Sources/LedgerKit/Old", ["LedgerRelease1", "LedgerKit"]),
            target("LedgerV1", "executable", ["LedgerRelease1", "LedgerRelease2", "AppHarness"]),
            target("LedgerV2", "executable", exclude: ["Patch.swift"], ["LedgerKit", "AppHarness"]),
            target("LedgerRelease3", "executable", path: "Sources/Releases/LedgerRelease3", []),
        ])
        #expect(
            FrozenReleases.manifestProblems(package) == [
                "Package.swift: LedgerV1 depends on LedgerRelease2",
                "Package.swift: LedgerRelease2 is built from Sources/LedgerKit/Old, not Sources/Releases/LedgerRelease2",
                "Package.swift: LedgerRelease2 depends on LedgerKit",
                "Package.swift: LedgerV2 names its sources or exclusions (every file of Sources/LedgerV2 is built)",
                "Package.swift: LedgerV2 depends on LedgerKit",
                "Package.swift: LedgerRelease3 is a target of type executable, not regular",
                "Package.swift: no target LedgerV3",
            ])
    }
}

/// The frozen releases' sources, their lock and their allowed dependencies.
enum FrozenReleases {
    /// How many releases are frozen (LedgerRelease1 ... LedgerRelease<count>, LedgerV1 ... LedgerV<count>).
    static let count = 3
    /// What a release may import besides the releases before it: the platform modules.
    static let platformModules: Set<String> = [
        "Foundation", "AppHarness", "SimPlatform", "SimSecurity", "UpgradeContract", "SimRuntime", "Security",
    ]

    static func library(_ release: Int) -> String { "LedgerRelease\(release)" }
    static func executable(_ release: Int) -> String { "LedgerV\(release)" }
    /// Whether this run re-records the lock (`RECORD_FROZEN=1`).
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_FROZEN"] == "1" }

    /// The folders of release `release`'s sources, relative to the root: its library's and its
    /// executable's.
    static func folders(_ release: Int) -> [String] {
        ["Sources/Releases/\(library(release))", "Sources/\(executable(release))"]
    }

    /// The folders the lock covers for release `release`: its sources' and its archived build
    /// inputs' (`builds/v<N>`).
    static func lockedFolders(_ release: Int) -> [String] { folders(release) + ["builds/v\(release)"] }

    /// What release `release`'s library (or, with `executable`, its executable) may import.
    static func allowedModules(release: Int, executable: Bool) -> Set<String> {
        platformModules.union((1..<(executable ? release + 1 : release)).map(library))
    }

    /// Every file of release `release` (paths relative to the root, sorted) with its text.
    static func sources(of release: Int, root: URL) throws -> [(path: String, text: String)] {
        try files(of: release, root: root).map { path in
            (path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8))
        }
    }

    /// Every file under `folders` (release `release`'s source folders by default), relative to the
    /// root, sorted.
    static func files(of release: Int, in folders: [String]? = nil, root: URL) throws -> [String] {
        var found: [String] = []
        for folder in folders ?? Self.folders(release) {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else {
                throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: folder])
            }
            while let name = walker.nextObject() as? String {
                var isFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: base.appendingPathComponent(name).path, isDirectory: &isFolder),
                    !isFolder.boolValue
                {
                    found.append(folder + "/" + name)
                }
            }
        }
        return found.sorted()
    }

    /// The SHA-256 of every frozen file, by path relative to the root.
    static func digests(root: URL) throws -> [String: String] {
        var digests: [String: String] = [:]
        for release in 1...count {
            for path in try files(of: release, in: lockedFolders(release), root: root) {
                digests[path] = SHA256.hash(try Data(contentsOf: root.appendingPathComponent(path))).hexDigits
            }
        }
        return digests
    }

    /// The lock's text: `<sha256>  <path>` per file, sorted by path (the format `sha256sum -c` reads).
    static func lockText(_ digests: [String: String]) -> String {
        digests.keys.sorted().map { "\(digests[$0]!)  \($0)\n" }.joined()
    }

    /// The digests a lock's text records, by path.
    static func parseLock(_ text: String) -> [String: String] {
        var digests: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { continue }
            digests[parts[1].trimmingCharacters(in: .whitespaces)] = String(parts[0])
        }
        return digests
    }

    /// One line per file whose digest differs from the lock's, or that only one side has, sorted by path.
    static func problems(recorded: [String: String], actual: [String: String]) -> [String] {
        Set(recorded.keys).union(actual.keys).sorted().compactMap { path in
            switch (recorded[path], actual[path]) {
            case (nil, _): "\(path): added since the lock"
            case (_, nil): "\(path): removed since the lock"
            case (let old?, let new?) where old != new: "\(path): changed since the lock"
            default: nil
            }
        }
    }

    /// What is wrong with the releases' targets in a package: a target missing or of the wrong kind,
    /// built from another folder than its release's (a `path:`, `sources:` or `exclude:` that
    /// leaves the locked files out), a release library depending on anything but the platform
    /// modules and earlier releases, a released executable depending on a later release or LedgerKit.
    static func manifestProblems(_ package: PackageDump) -> [String] {
        var problems: [String] = []
        for release in 1...count {
            for (name, kind, folder, isExecutable) in [
                (library(release), "regular", folders(release)[0], false),
                (executable(release), "executable", folders(release)[1], true),
            ] {
                guard let target = package.targets.first(where: { $0.name == name }) else {
                    problems.append("Package.swift: no target \(name)")
                    continue
                }
                if target.type != kind {
                    problems.append("Package.swift: \(name) is a target of type \(target.type), not \(kind)")
                }
                if (target.path ?? folder) != folder {
                    problems.append("Package.swift: \(name) is built from \(target.path ?? ""), not \(folder)")
                }
                if target.sources != nil || !(target.exclude ?? []).isEmpty {
                    problems.append("Package.swift: \(name) names its sources or exclusions (every file of \(folder) is built)")
                }
                let allowed = allowedModules(release: release, executable: isExecutable)
                problems += target.dependencyNames.filter { !allowed.contains($0) }.map {
                    "Package.swift: \(name) depends on \($0)"
                }
            }
        }
        return problems
    }
}
