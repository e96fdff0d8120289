import Foundation
import SimRuntime
import Testing
import TestSupport

/// The released builds v1, v2 and v3 are frozen: each runs its `main.swift` (`Sources/LedgerV<N>`) and
/// the libraries of its release and the releases before it (`Sources/Releases/LedgerRelease<N>`), and
/// nothing of the live code in LedgerKit, which later builds and known-bad builds change.
///
/// Changing a released build is a new release (a new build, target and library), not an edit. The lock
/// `Sources/Releases/FROZEN.sha256` holds the SHA-256 of every frozen source (`sha256sum -c` reads it);
/// re-record it only on purpose, with `RECORD_SNAPSHOTS=1` (the switch of the golden files).
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
        if Golden.recording {
            try FrozenReleases.lockText(actual).write(to: lock, atomically: true, encoding: .utf8)
            return
        }
        let recorded = FrozenReleases.parseLock(try String(contentsOf: lock, encoding: .utf8))
        for problem in FrozenReleases.problems(recorded: recorded, actual: actual) {
            Issue.record("\(problem) (a released build is frozen: a change is a new release, not an edit)")
        }
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
                problems += FrozenReleases.imports(in: text).filter { !allowed.contains($0.module) }
                    .map { "\(path):\($0.line): imports \($0.module)" }
            }
        }
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        problems += FrozenReleases.manifestProblems(manifest)
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
            FrozenReleases.imports(in: text).filter { !allowed.contains($0.module) }.map(\.module) == [
                "LedgerRelease3", "LedgerKit",
            ])
        let manifest = """
            .target(name: "LedgerRelease1", dependencies: ["AppHarness", "SimSecurity"], path: "Sources/Releases/LedgerRelease1"),
            .target(
                name: "LedgerRelease2", dependencies: ["LedgerRelease1", "LedgerKit"],
                path: "Sources/Releases/LedgerRelease2"),
            appBuild("LedgerV1", dependencies: ["LedgerRelease1", "LedgerRelease2", "AppHarness"]),
            appBuild("LedgerV2"),
            """
        #expect(
            FrozenReleases.manifestProblems(manifest) == [
                "Package.swift: LedgerV1 depends on LedgerRelease2",
                "Package.swift: LedgerRelease2 depends on LedgerKit",
                "Package.swift: LedgerV2 has appBuild's default dependencies (LedgerKit)",
                "Package.swift: no target LedgerRelease3",
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
    /// The folders of release `release`'s sources, relative to the root: its library's and its executable's.
    static func folders(_ release: Int) -> [String] {
        ["Sources/Releases/\(library(release))", "Sources/\(executable(release))"]
    }

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

    /// Every file under release `release`'s folders, relative to the root, sorted.
    static func files(of release: Int, root: URL) throws -> [String] {
        var found: [String] = []
        for folder in folders(release) {
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
            for path in try files(of: release, root: root) {
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

    /// The modules a Swift source imports (`import X`, `@_exported import X`, `import struct X.Y`), with their lines.
    static func imports(in text: String) -> [(module: String, line: Int)] {
        let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
            index, line -> (module: String, line: Int)? in
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
            guard words.first == "import", var module = words.dropFirst().first else { return nil }
            if kinds.contains(module), let next = words.dropFirst(2).first { module = next }
            return (String(module.split(separator: ".").first ?? module), index + 1)
        }
    }

    /// What is wrong with the releases' targets in a package manifest: a target missing, a release
    /// library depending on a later release or on anything but the platform modules and earlier
    /// releases, a released executable depending on a later release or on LedgerKit.
    static func manifestProblems(_ manifest: String) -> [String] {
        var problems: [String] = []
        for release in 1...count {
            for (name, anchor, isExecutable) in [
                (library(release), ".target(name: \"\(library(release))\"", false),
                (executable(release), "appBuild(\"\(executable(release))\"", true),
            ] {
                guard
                    let call = call(startingWith: anchor, in: manifest)
                        ?? libraryCall(library(release), in: manifest, when: !isExecutable)
                else {
                    problems.append("Package.swift: no target \(name)")
                    continue
                }
                guard let dependencies = dependencies(in: call) else {
                    if isExecutable { problems.append("Package.swift: \(name) has appBuild's default dependencies (LedgerKit)") }
                    continue
                }
                let allowed = allowedModules(release: release, executable: isExecutable)
                problems += dependencies.filter { !allowed.contains($0) }.map { "Package.swift: \(name) depends on \($0)" }
            }
        }
        return problems
    }

    /// A library target written over several lines: `.target(` followed by `name: "<name>"`.
    private static func libraryCall(_ name: String, in manifest: String, when enabled: Bool) -> Substring? {
        guard enabled, let nameRange = manifest.range(of: "name: \"\(name)\"") else { return nil }
        guard let open = manifest[..<nameRange.lowerBound].range(of: ".target(", options: .backwards) else { return nil }
        return call(from: open.lowerBound, in: manifest)
    }

    /// The text of the call that starts with `anchor`, up to its closing parenthesis.
    private static func call(startingWith anchor: String, in manifest: String) -> Substring? {
        manifest.range(of: anchor).flatMap { call(from: $0.lowerBound, in: manifest) }
    }

    private static func call(from start: String.Index, in manifest: String) -> Substring? {
        var depth = 0
        var index = start
        while index < manifest.endIndex {
            switch manifest[index] {
            case "(", "[": depth += 1
            case ")", "]":
                depth -= 1
                if depth == 0 { return manifest[start...index] }
            default: break
            }
            index = manifest.index(after: index)
        }
        return nil
    }

    /// The quoted names in a call's `dependencies: [...]`; nil when it has none.
    private static func dependencies(in call: Substring) -> [String]? {
        guard let label = call.range(of: "dependencies: [") else { return nil }
        let list = call[label.upperBound...].prefix { $0 != "]" }
        return list.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
            String($0.element)
        }
    }
}
