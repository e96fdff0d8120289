import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import TestSupport
import Testing
@testable import UpgradeRunner

/// second-device runs where the release the second device keeps declares a synchronizable keychain
/// secret (issue 38 item 6). Ledger v1-v3 declare none: the default gate leaves it out of the sample
/// (its artifacts are those of a gate before the scenario), and naming it there is bad input. The
/// scenario's own run, device B's launches named among the cell's status files, is Examples/Mail's
/// (`MailUpgradeTests.secondDevice`, and scripts/own-app-example's mail32 -> mail42 gates).
@Suite("second-device where a synchronizable secret is declared")
struct SecondDeviceGateTests {
    @Test("the plan runs second-device on the paths whose last hop starts at a build that declares one")
    func planned() throws {
        func units(_ synchronizable: [String]?) throws -> [String] {
            try GatePlan(
                builds: ["v1", "v2", "v3"], routes: [BuildPair(route: ["v1", "v2", "v3"]), BuildPair(old: "v1", new: "v3")],
                scenarios: [.upgrade, .secondDevice], synchronizable: synchronizable
            ).units(in: nil).filter { $0.scenario == .secondDevice }.map(\.path.id)
        }
        // The route's last hop starts at v2, whose release the second device keeps.
        #expect(try units(["v2"]) == ["v1-to-v2-to-v3"])
        #expect(try units(["v1"]) == ["v1-to-v2", "v1-to-v3"])
        #expect(try units([]) == [])
        // A run.json from before the record: every upgrade path, as when the scenario was opt-in.
        #expect(try units(nil).count == 3)
    }

    @Test("the default list keeps second-device where a build declares a synchronizable secret (Mail 3.2), recorded in run.json")
    func recordedFromDeclarations() throws {
        let folder = Script.repositoryRoot + "/Examples/Mail/builds"
        let catalog = BuildCatalog(folder: folder, productsFolder: "/nonexistent")
        var resolved: [String: Build] = [:]
        for id in ["mail1", "mail32", "mail42"] { resolved[id] = try catalog.build(id, requiringExecutable: false) }
        #expect(RunInputs.synchronizableBuilds(of: resolved, ids: ["mail1", "mail32", "mail42"]) == ["mail32", "mail42"])
        #expect(RunInputs.synchronizableBuilds(of: resolved, ids: ["mail1"]) == nil)

        let files = RunInputs.BuildFiles(executable: "0", entitlements: "0")
        var inputs = RunInputs(
            builds: ["mail1", "mail32", "mail42"], runtime: .current, caseID: "sync", scenarios: Scenario.gateDefault,
            buildFiles: ["mail1": files, "mail32": files, "mail42": files], runnerVersion: "test")
        try inputs.recordBuildFeatures(of: resolved, named: nil)
        #expect(inputs.synchronizable == ["mail32", "mail42"])
        #expect(inputs.scenarios.contains(.secondDevice))
        let planned = try inputs.plan().units(in: nil).filter { $0.scenario == .secondDevice }.map(\.path.id)
        // Inputs without recorded routes plan the two-build paths: only mail32-to-mail42 starts its last hop at mail32.
        #expect(planned == ["mail32-to-mail42"])

        // The same list over builds that declare none drops it and records nothing.
        var plain = RunInputs(
            builds: ["mail1", "mail32"], runtime: .current, caseID: "sync", scenarios: Scenario.gateDefault,
            buildFiles: ["mail1": files, "mail32": files], runnerVersion: "test")
        try plain.recordBuildFeatures(of: resolved, named: nil)
        #expect(plain.synchronizable == ["mail32"])
        #expect(!plain.scenarios.contains(.secondDevice), "mail32 is only ever the new build there")
    }

    @Test("on the sample builds the default gate leaves it out; naming it is one line naming the flag, exit 2")
    func sampleRefuses() throws {
        let cli = try CLI("second-device")
        let out = cli.directory.file("out")
        let result = cli.run(
            [
                "run", "--from", "v1", "--to", "v2", "--scenario", "upgrade,second-device", "--case-id", "two", "--quiet",
                "--out", out,
            ],
            environment: ["UPGRADE_RUNNER_BUILDS": sampleBuilds])
        #expect(result.code == 2, "\(result.output)\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
        #expect(result.error.contains("--scenario"), "\(result.error)")
        #expect(result.error.contains("second-device, which runs only where"), "\(result.error)")
        #expect(result.error.contains("v1 declares none"), "\(result.error)")
        #expect(!FileManager.default.fileExists(atPath: out + "/paths"))
    }
}
