import Foundation

/// The part of `swift package dump-package`'s JSON that the package's own checks read: each
/// target's name, type, folder, sources, exclusions and dependencies, as SwiftPM resolves the
/// manifest (helpers such as `appBuild` with default dependencies included).
public struct PackageDump: Decodable, Sendable {
    public struct Target: Decodable, Sendable {
        public var name: String
        /// `regular`, `executable`, `test`, `system`, `plugin`.
        public var type: String
        public var path: String?
        public var sources: [String]?
        public var exclude: [String]?
        /// Each dependency as dump-package writes it: `{"byName": ["X", null]}`, `{"target": [...]}`
        /// or `{"product": ["X", "package", ...]}`.
        public var dependencies: [[String: [String?]]]

        public init(
            name: String, type: String, path: String? = nil, sources: [String]? = nil, exclude: [String]? = nil,
            dependencies: [[String: [String?]]]
        ) {
            self.name = name
            self.type = type
            self.path = path
            self.sources = sources
            self.exclude = exclude
            self.dependencies = dependencies
        }

        /// The names of the targets and products it depends on.
        public var dependencyNames: [String] { dependencies.compactMap { $0.values.first?.first ?? nil } }

        /// Its folder relative to the package's root: `path:`, else `Sources/<name>` (`Tests/<name>` for a test).
        public var folder: String { path ?? (type == "test" ? "Tests/" : "Sources/") + name }

        /// The module its Swift files are compiled into (an executable's `-` becomes `_`).
        public var module: String { name.replacingOccurrences(of: "-", with: "_") }
    }

    public var targets: [Target]

    public init(targets: [Target]) { self.targets = targets }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var dumped: [String: PackageDump] = [:]

    /// The manifest of the package at `root` as SwiftPM reads it, dumped once per process (several
    /// checks read it; a dump compiles the manifest).
    public static func load(root: URL) throws -> PackageDump {
        try lock.withLock {
            if let known = dumped[root.path] { return known }
            let dump = try run(root: root)
            dumped[root.path] = dump
            return dump
        }
    }

    private static func run(root: URL) throws -> PackageDump {
        // SwiftPM's lock files for a scratch path go to the temporary folder, named after the path:
        // with TMPDIR inside the folder this removes, the dump leaves nothing behind in /tmp.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("package-dump-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scratch = folder.appendingPathComponent("scratch")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", root.path, "--scratch-path", scratch.path, "dump-package"]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = folder.appendingPathComponent("tmp").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: "Package.swift"])
        }
        return try JSONDecoder().decode(PackageDump.self, from: data)
    }
}

/// The modules a Swift source's `import` lines name.
public enum SwiftImports {
    /// Each module imported (`import X`, `@_exported import X`, `internal import X`,
    /// `@testable import X`, `import struct X.Y`), with its line, in order. Lines under
    /// `#if canImport(X)` count; lines inside a multi-line string literal (a test's fixture text)
    /// and comments do not.
    public static func modules(in text: String) -> [(module: String, line: Int)] {
        let kinds: Set<Substring> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]
        let access: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
        var inLiteral = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap {
            index, line -> (module: String, line: Int)? in
            // A line with an odd number of `"""` opens or closes a multi-line string literal.
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 {
                inLiteral.toggle()
                return nil
            }
            guard !inLiteral else { return nil }
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            while let first = words.first, first.hasPrefix("@") || access.contains(first) { words = words.dropFirst() }
            guard words.first == "import", var module = words.dropFirst().first else { return nil }
            if kinds.contains(module), let next = words.dropFirst(2).first { module = next }
            return (String(module.split(separator: ".").first ?? module), index + 1)
        }
    }
}
