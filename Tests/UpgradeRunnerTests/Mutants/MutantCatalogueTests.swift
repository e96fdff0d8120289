import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimDevice
import TestSupport
import Testing
@testable import UpgradeRunner

/// The known-bad catalogue in the repository's builds/mutants/: every build resolves and says what must catch it.
@Suite struct MutantCatalogueTests {
    static let catalog = BuildCatalog(folder: RunFolders.repositoryBuilds, productsFolder: BuiltProducts.directory.path)
    static let ids = catalog.mutantIDs()

    @Test("at least 12 mutants, each a separate executable")
    func count() throws {
        #expect(Self.ids.count >= 12)
        let executables = try Self.ids.map { try Self.catalog.build($0).manifest.executable }
        #expect(Set(executables).count == Self.ids.count)
        #expect(!executables.contains { $0.hasPrefix("LedgerV") })
    }

    @Test("each mutant resolves by its plain id, names an anti-pattern and a known gate condition", arguments: ids)
    func resolves(id: String) throws {
        let build = try Self.catalog.build(id)
        #expect(build.manifest.id == id)
        #expect(build.folder.hasSuffix("/builds/mutants/" + id))
        #expect(FileManager.default.isExecutableFile(atPath: build.executablePath))
        #expect(!(build.manifest.antiPattern ?? "").isEmpty)
        let condition = try #require(build.manifest.expectedCondition)
        #expect(GateCondition(rawValue: condition) != nil, "\(condition)")
        #expect(build.manifest.bundleID == "com.example.ledger")
    }

    @Test("the mutants command reads the whole catalogue; a released build's folder wins over a mutant of the same id")
    func catalogueRead() throws {
        let mutants = try MutantsRun.mutants(in: Self.catalog)
        #expect(mutants.map(\.build.manifest.id) == Self.ids)
        #expect(try Self.catalog.build("v2").folder.hasSuffix("/builds/v2"))
    }

    @Test("a mutant's paths: a fresh install, each released build of a lower schema, and the route through them")
    func paths() throws {
        let released = try ["v1", "v2", "v3"].map { try Self.catalog.build($0) }
        let v2Based = try Self.catalog.build("no-read-back"), v3Based = try Self.catalog.build("service-renamed")
        #expect(MutantsRun.paths(for: v2Based, released: released).map(\.id) == ["none-to-no-read-back", "v1-to-no-read-back"])
        #expect(
            MutantsRun.paths(for: v3Based, released: released).map(\.id)
                == [
                    "none-to-service-renamed", "v1-to-service-renamed", "v2-to-service-renamed",
                    "v1-to-v2-to-service-renamed",
                ])
        let all = Scenario.allCases
        let fromV1 = MutantsRun.scenarios(all, on: BuildPair(old: "v1", new: "m"), newestOld: "v2")
        #expect(fromV1.contains(.skipVersion) && !fromV1.contains(.upgrade) && !fromV1.contains(.freshInstall))
        let fromV2 = MutantsRun.scenarios(all, on: BuildPair(old: "v2", new: "m"), newestOld: "v2")
        #expect(fromV2.contains(.upgrade) && !fromV2.contains(.skipVersion) && fromV2.contains(.crashPoints))
        #expect(MutantsRun.scenarios([.upgrade], on: BuildPair(old: "v1", new: "m"), newestOld: "v2") == [.upgrade])
        #expect(MutantsRun.scenarios(all, on: BuildPair(old: nil, new: "m"), newestOld: "v2") == [.freshInstall, .reinstallSelf])
        let route = MutantsRun.scenarios(all, on: BuildPair(route: ["v1", "v2", "m"]), newestOld: "v2")
        #expect(route.contains(.upgrade) && !route.contains(.skipVersion) && route.contains(.crashPoints))
    }

    @Test("a manifest without antiPattern or with an unknown expectedCondition is bad input naming the field")
    func badManifest() throws {
        let folder = try TemporaryDirectory("mutant-manifest")
        let catalog = BuildCatalog(folder: folder.path, productsFolder: BuiltProducts.directory.path)
        #expect(throws: GateError.self) { try MutantsRun.mutants(in: catalog) }
        let build = folder.file("mutants/m1")
        try FileManager.default.createDirectory(atPath: build, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: RunFolders.repositoryBuilds + "/v2/Ledger.entitlements", toPath: build + "/Ledger.entitlements")
        for (extra, field) in [
            ("", "antiPattern"), (#", "antiPattern": "x", "expectedCondition": "reads-everything""#, "expectedCondition"),
        ] {
            let manifest =
                #"{"id": "m1", "bundleID": "com.example.ledger", "marketingVersion": "2.1", "buildNumber": "210", "executable": "LedgerV2", "schemaVersion": 2, "entitlements": "Ledger.entitlements""#
                + extra + "}"
            try Data(manifest.utf8).write(to: URL(fileURLWithPath: build + "/build.json"))
            do {
                _ = try MutantsRun.mutants(in: catalog)
                Issue.record("no error for a manifest without \(field)")
            } catch let error as GateError {
                #expect(error.description.contains("m1/build.json") && error.description.contains("\"\(field)\""), "\(error)")
            }
        }
    }
}
