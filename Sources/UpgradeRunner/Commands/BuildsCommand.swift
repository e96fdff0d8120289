import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime

/// `upgrade-runner builds`: the archived builds with their versions, identity and sha256.
enum BuildsCommand {
    static let spec = CommandSpec(
        ["builds"], summary: "List the archived builds with versions, teams, groups and sha256.",
        options: [CommonOptions.buildsDir, CommonOptions.products, CommonOptions.json],
        discussion: """
            Lists every build in the builds folder: id, versions, bundle id, team, keychain access groups (new items land
            in the first), and the sha256 of its executable and entitlements file (what run.json pins). A folder that
            cannot be read is reported on standard error and the listing goes on (exit 2; 3 for a failed file
            operation). In full: docs/cli.md#builds.
            """)

    /// One listed build.
    struct Entry: Encodable {
        var id: String
        var marketingVersion: String
        var buildNumber: String
        var bundleID: String
        var team: String?
        var accessGroups: [String]
        var executable: String
        /// Lower-case hex, or `missing` when the executable is not built.
        var executableSHA256: String
        var entitlements: String
        var entitlementsSHA256: String
        var folder: String
    }

    /// The options of `builds`, read once.
    struct Options {
        var source: BuildSource
        var json: Bool

        init(_ options: OptionValues) {
            source = BuildSource(options)
            json = options.flag(CommonOptions.json)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        let catalog = options.source.catalog
        let (entries, problems) = try list(catalog)
        if options.json {
            try invocation.printJSON(entries)
        } else if entries.isEmpty {
            if problems.isEmpty { invocation.console.output("no builds in \(catalog.folder)") }
        } else {
            invocation.console.output(entries.map(text).joined(separator: "\n"))
        }
        return ExitStatus.report(problems: problems, to: invocation.console)
    }

    /// Every build folder of `catalog`, sorted by id, and the error of each folder that cannot be read.
    /// - Throws: ``GateError`` when the builds folder itself is missing.
    static func list(_ catalog: BuildCatalog) throws(GateError) -> (entries: [Entry], problems: [any Error]) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: catalog.folder) else {
            throw .unreadable(path: catalog.folder, reason: "builds folder is missing or cannot be listed")
        }
        var entries: [Entry] = []
        var problems: [any Error] = []
        // The known-bad builds in mutants/ resolve by their plain ids and are listed after the real ones.
        let real = names.sorted().filter { !$0.hasPrefix(".") && $0 != BuildCatalog.mutantsFolderName }
        for name in real + catalog.mutantIDs() {
            var isDirectory: ObjCBool = false
            let folder = real.contains(name) ? catalog.folder + "/" + name : catalog.mutantsFolder + "/" + name
            guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            do {
                entries.append(try entry(name, in: catalog))
            } catch {
                problems.append(error)
            }
        }
        return (entries, problems)
    }

    /// The entry of build `id`: the catalog checks the manifest and entitlements; an executable that is
    /// not built is listed as `missing`, not as a problem.
    private static func entry(_ id: String, in catalog: BuildCatalog) throws -> Entry {
        let build = try catalog.build(id, requiringExecutable: false)
        let executableSHA256 =
            FileManager.default.isExecutableFile(atPath: build.executablePath)
            ? try GateHash.hexOfFile(atPath: build.executablePath) : "missing"
        return Entry(
            id: build.manifest.id, marketingVersion: build.manifest.marketingVersion, buildNumber: build.manifest.buildNumber,
            bundleID: build.manifest.bundleID, team: build.identity.teamIdentifier, accessGroups: build.identity.accessGroups,
            executable: build.manifest.executable, executableSHA256: executableSHA256,
            entitlements: build.manifest.entitlements, entitlementsSHA256: try GateHash.hexOfFile(atPath: build.entitlementsPath),
            folder: build.folder)
    }

    private static func text(_ entry: Entry) -> String {
        // A manifest's values may hold a control character (a newline, ESC): escaped, each line stays one.
        let e = QuotedValue.oneLine
        return """
            \(e(entry.id))  \(e(entry.marketingVersion)) (\(e(entry.buildNumber)))  \(e(entry.bundleID))  team \(e(entry.team ?? "-"))
              access groups: \(entry.accessGroups.isEmpty ? "-" : e(entry.accessGroups.joined(separator: ", ")))
              executable:    \(entry.executableSHA256 == "missing" ? "missing (not built)" : "sha256 " + entry.executableSHA256)  \(e(entry.executable))
              entitlements:  sha256 \(entry.entitlementsSHA256)  \(e(entry.entitlements))
            """
    }
}
