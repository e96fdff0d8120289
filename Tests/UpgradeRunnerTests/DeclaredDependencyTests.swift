import Foundation
import TestSupport
import Testing

/// Package.swift declares, for every target, exactly the package's modules that the target's Swift
/// files import (docs/architecture.md, "Modules"): no module used through another's dependency, no
/// dependency left behind by an import that went.
@Suite("Package.swift: declared dependencies are the imports")
struct DeclaredDependencyTests {
    /// The repository's root, found from this source file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("every target declares exactly the package's modules its Swift files import")
    func declaredAreImported() throws {
        let package = try PackageDump.load(root: Self.root)
        #expect(package.targets.count > 40, "the dump lists the package's targets")
        let problems = try DeclaredDependencies.problems(package) { target in
            try DeclaredDependencies.swiftFiles(of: target, root: Self.root)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("SimSecurity stands alone: nothing it depends on, directly or not, is the file supervisor")
    func simSecurityStandsAlone() throws {
        let package = try PackageDump.load(root: Self.root)
        let byName = Dictionary(package.targets.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var closure: Set<String> = []
        var pending = ["SimSecurity"]
        while let name = pending.popLast() {
            for dependency in byName[name]?.dependencyNames ?? [] where closure.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        #expect(closure.contains("SimRuntime"), "\(closure.sorted())")
        #expect(
            closure.isDisjoint(with: ["SimSupervision", "CFileSupervisor", "SimPlatform", "SimDevice"]), "\(closure.sorted())")
    }

    @Test("the check names the target and the module both ways; tools, C targets and fixture text are not imports")
    func checkFindsDifferences() throws {
        func target(_ name: String, type: String = "regular", _ dependencies: [String]) -> PackageDump.Target {
            PackageDump.Target(name: name, type: type, dependencies: dependencies.map { ["byName": [$0, nil]] })
        }
        let package = PackageDump(targets: [
            target("Model", []),
            target("Device", ["Model"]),
            target("Gate", ["Model"]),
            target("CHelper", []),
            target("tool-main", type: "executable", ["Device"]),
            target("GateTests", type: "test", ["Gate", "Device", "tool-main"]),
        ])
        let files: [String: [(path: String, text: String)]] = [
            "Model": [("Sources/Model/A.swift", "import Foundation\n")],
            "Device": [("Sources/Device/A.swift", "internal import Model\n")],
            "Gate": [("Sources/Gate/A.swift", "import Model\n@_exported import Device\n")],
            "tool-main": [("Sources/tool-main/main.swift", "import Device\n")],
            "GateTests": [
                (
                    "Tests/GateTests/A.swift",
                    "@testable import Gate\nlet fixture = \"\"\"\n    import Model\n    \"\"\"\n// import Model\n"
                )
            ],
        ]
        #expect(
            DeclaredDependencies.problems(package) { files[$0.name] ?? [] } == [
                "Package.swift: Gate imports Device (Sources/Gate/A.swift:2) but does not declare it",
                "Package.swift: GateTests declares Device, which none of its Swift files imports",
            ])
        #expect(SwiftImports.modules(in: "#if canImport(Security)\n    import Security\n#endif\n").map(\.module) == ["Security"])
    }
}

/// Package.swift's declared dependencies against the targets' `import` lines.
enum DeclaredDependencies {
    /// One line per difference, sorted: a package module a target's Swift files import that it does
    /// not declare (naming the file and line of the first import), and a declared module that none
    /// of them imports. An executable a target depends on is a tool it runs, never an import; a
    /// target with no Swift files (C, a system library) and a plugin are not checked.
    /// - Parameter sources: the Swift files of a target, each with its path and text.
    static func problems(
        _ package: PackageDump, sources: (PackageDump.Target) throws -> [(path: String, text: String)]
    ) rethrows -> [String] {
        let modules = Dictionary(package.targets.map { ($0.module, $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [String] = []
        for target in package.targets where target.type != "plugin" && target.type != "system" {
            let files = try sources(target)
            guard !files.isEmpty else { continue }
            var imported: [String: String] = [:]
            for (path, text) in files {
                for (module, line) in SwiftImports.modules(in: text)
                where modules[module] != nil && module != target.module && imported[module] == nil {
                    imported[module] = "\(path):\(line)"
                }
            }
            let declared = Set(
                target.dependencyNames.map { $0.replacingOccurrences(of: "-", with: "_") }
                    .filter { modules[$0]?.type != "executable" })
            for module in imported.keys.sorted() where !declared.contains(module) {
                problems.append("Package.swift: \(target.name) imports \(module) (\(imported[module]!)) but does not declare it")
            }
            for module in declared.sorted() where imported[module] == nil {
                problems.append("Package.swift: \(target.name) declares \(module), which none of its Swift files imports")
            }
        }
        return problems.sorted()
    }

    /// The Swift files SwiftPM builds into `target` (its folder, less its exclusions; only its
    /// `sources:` when it names them), each with its path relative to `root` and its text.
    static func swiftFiles(of target: PackageDump.Target, root: URL) throws -> [(path: String, text: String)] {
        let folder = root.appendingPathComponent(target.folder)
        let skipped = (target.exclude ?? []).map { target.folder + "/" + $0 }
        let chosen = target.sources.map { $0.map { target.folder + "/" + $0 } }
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [(path: String, text: String)] = []
        while let name = walker.nextObject() as? String {
            let path = target.folder + "/" + name
            guard name.hasSuffix(".swift"), !skipped.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) else {
                continue
            }
            if let chosen, !chosen.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { continue }
            files.append((path, try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)))
        }
        return files.sorted { $0.path < $1.path }
    }
}
