import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

@Suite struct GatePlanTests {
    @Test("the default paths are every ordered pair plus a fresh install of each")
    func defaultPaths() throws {
        let ids = try GatePlan.defaultPaths(builds: ["v1", "v2", "v3"]).map(\.id)
        #expect(ids == ["none-to-v1", "none-to-v2", "none-to-v3", "v1-to-v2", "v1-to-v3", "v2-to-v3"])
    }

    @Test("pairs follow the given order, not the names' order")
    func givenOrder() throws {
        let ids = try GatePlan.defaultPaths(builds: ["b", "a"]).map(\.id)
        #expect(ids.contains("b-to-a") && !ids.contains("a-to-b"))
    }

    @Test("path ids round-trip")
    func pathIDs() {
        #expect(BuildPair(id: "v1-to-v2") == BuildPair(old: "v1", new: "v2"))
        #expect(BuildPair(id: "none-to-v3") == BuildPair(old: nil, new: "v3"))
        #expect(BuildPair(id: "v1v2") == nil)
    }

    @Test(
        "bad build lists are refused with the build named",
        arguments: [
            (["v1", "v1"], "--builds: \"v1,v1\" names build \"v1\" twice"),
            (["none"], "build id \"none\": \"none\" stands for no build in a path id"),
            (["a-to-b"], "build id \"a-to-b\": contains \"-to-\", which separates a path id"),
            ([String](), "--builds: \"\" names no build"),
        ])
    func badBuilds(builds: [String], message: String) {
        #expect(throws: GateError.self) { try GatePlan.defaultPaths(builds: builds) }
        // The model names the field; the command line (ExitStatus.report) the flag.
        do { _ = try GatePlan.defaultPaths(builds: builds) } catch {
            #expect(ExitStatus.report(error).message == message)
            #expect(error.description == message.replacingOccurrences(of: "--builds:", with: "builds:"))
        }
    }

    @Test("upgrade runs on adjacent pairs, skip-version on the others, fresh-install on none-to-X")
    func scenarioPlacement() throws {
        let plan = try GatePlan(builds: ["v1", "v2", "v3"], scenarios: [.freshInstall, .upgrade, .skipVersion, .reinstall])
        let units = plan.units.map(\.description)
        #expect(
            units == [
                "none-to-v1/fresh-install", "none-to-v2/fresh-install", "none-to-v3/fresh-install",
                "v1-to-v2/upgrade", "v1-to-v2/reinstall", "v1-to-v3/skip-version", "v1-to-v3/reinstall",
                "v2-to-v3/upgrade", "v2-to-v3/reinstall",
            ])
        #expect(
            plan.expectedCells(in: nil).contains(
                GateCell(path: .id("v1-to-v2"), scenario: .reinstall, condition: .noSecretInArtifacts)))
    }

    @Test("the default routes: every direct jump plus the chain through every build, closed under prefixes")
    func defaultRoutes() throws {
        #expect(
            try GatePlan.defaultRoutes(builds: ["v1", "v2", "v3"]).map(\.id)
                == ["v1-to-v2", "v1-to-v2-to-v3", "v1-to-v3", "v2-to-v3"])
        let four = try GatePlan.defaultRoutes(builds: ["a", "b", "c", "d"]).map(\.id)
        #expect(four.contains("a-to-b-to-c-to-d") && four.contains("a-to-b-to-c") && !four.contains("b-to-c-to-d"))
        #expect(four.count == 6 + 2, "six direct jumps, the chain and its one longer prefix")
        // Two builds: the routes are the pairs, and run.json records none (its bytes as before routes).
        #expect(try GatePlan.recordedRoutes(builds: ["v1", "v2"], given: nil) == nil)
        #expect(try GatePlan.recordedRoutes(builds: ["v1", "v2", "v3"], given: nil)?.count == 4)
    }

    @Test("route ids: -to- joins every build; the CLI spelling > reads the same; two-build paths keep their JSON")
    func routeIDs() throws {
        let route = BuildPair(route: ["v1", "v2", "v3"])
        #expect(route.id == "v1-to-v2-to-v3" && route.old == "v1" && route.new == "v3" && route.previous == "v2")
        #expect(BuildPair(id: "v1-to-v2-to-v3") == route)
        #expect(BuildPair(routeText: "v1>v2>v3") == route && BuildPair(routeText: " v1 > v2 > v3 ") == route)
        #expect(BuildPair(routeText: "v1-to-v2-to-v3") == route)
        #expect(BuildPair(routeText: "v1") == nil && BuildPair(routeText: "v1>") == nil)
        #expect(BuildPair(id: "none-to-v1-to-v2") == nil && BuildPair(id: "v1-to-none") == nil)
        #expect(route.prefixes.map(\.id) == ["v1-to-v2", "v1-to-v2-to-v3"])
        #expect(String(decoding: GateJSON.compact(BuildPair(old: "v1", new: "v2")), as: UTF8.self) == #"{"new":"v2","old":"v1"}"#)
        let encoded = GateJSON.compact(route)
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"new":"v3","old":"v1","via":["v2"]}"#)
        #expect(try JSONDecoder().decode(BuildPair.self, from: encoded) == route)
        #expect(RuntimePath(id: "iOS-15.0/v1-to-v2-to-v3")?.pair == route)
    }

    @Test("on a route, upgrade or skip-version follows the last hop; every other scenario applies; prefixes are added")
    func routePlacement() throws {
        let plan = try GatePlan(
            builds: ["v1", "v2", "v3", "v4"],
            routes: [BuildPair(route: ["v1", "v2", "v4"]), BuildPair(route: ["v1", "v3", "v4"])],
            scenarios: [.freshInstall, .upgrade, .skipVersion, .crashPoints])
        let units = plan.units.map(\.description)
        #expect(units.contains("v1-to-v3-to-v4/upgrade") && units.contains("v1-to-v3-to-v4/crash-points"))
        #expect(units.contains("v1-to-v2-to-v4/skip-version") && !units.contains("v1-to-v2-to-v4/upgrade"))
        #expect(units.contains("v1-to-v2/upgrade") && units.contains("v1-to-v3/skip-version"), "the prefixes")
        #expect(units.contains("none-to-v4/fresh-install") && !units.contains { $0.hasPrefix("v2-to-v3") })
        #expect(plan.units.first { $0.path.isMultiHop }?.folder == "paths/v1-to-v2-to-v4/skip-version")
    }

    @Test("reinstall-self runs once, on the release under test's fresh install; backup-restore on every upgrade path")
    func reinstallSelfPlacement() throws {
        let scenarios: [Scenario] = [.freshInstall, .backupRestore, .reinstallSelf]
        let units = try GatePlan(builds: ["v1", "v2", "v3"], scenarios: scenarios).units.map(\.description)
        #expect(units.filter { $0.hasSuffix("/reinstall-self") } == ["none-to-v3/reinstall-self"])
        #expect(
            units.filter { $0.hasSuffix("/backup-restore") } == [
                "v1-to-v2/backup-restore", "v1-to-v3/backup-restore", "v2-to-v3/backup-restore",
            ])
        let named = try GatePlan(builds: ["v1", "v2", "v3"], scenarios: scenarios, release: "v2").units.map(\.description)
        #expect(named.filter { $0.hasSuffix("/reinstall-self") } == ["none-to-v2/reinstall-self"])
        // A single run: reinstall-self needs no old build, like fresh-install.
        #expect(throws: GateError.self) { try GatePlan(path: BuildPair(old: "v1", new: "v3"), scenarios: [.reinstallSelf]) }
        #expect(try GatePlan(path: BuildPair(old: nil, new: "v3"), scenarios: [.reinstallSelf]).units.count == 1)
    }

    @Test(
        "a route not in build order, naming an unknown build or repeating one, is refused naming --routes and the route",
        arguments: [
            (["v2", "v1"], "--routes: \"v2>v1\" lists v2 before v1: a route goes oldest first, by build number"),
            (["v1", "v9"], "--routes: \"v1>v9\" names unknown build \"v9\""),
            (["v1", "v2", "v1"], "--routes: \"v1>v2>v1\" names build \"v1\" twice"),
        ])
    func badRoutes(route: [String], message: String) {
        #expect(throws: GateError.self) {
            try GatePlan(builds: ["v1", "v2", "v3"], routes: [BuildPair(route: route)], scenarios: [.upgrade])
        }
        do { _ = try GatePlan(builds: ["v1", "v2", "v3"], routes: [BuildPair(route: route)], scenarios: [.upgrade]) } catch {
            #expect(ExitStatus.report(error).message == message)
            #expect(error.description == message.replacingOccurrences(of: "--routes:", with: "routes:"))
        }
    }

    @Test(
        "every scenario that changes the device after the upgrade ends with the final re-read its checkers compare (relaunch: its own relaunches)"
    )
    func finalReread() {
        for scenario in Scenario.allCases where scenario.changesStateAfterUpgrade {
            let steps = scenario.steps
            // The debug build asserts a cell snapshots exactly `moments`, so these are moments the steps take.
            #expect(Set(steps.idempotenceMoments).isSubset(of: steps.moments), "\(scenario)")
            if scenario != .relaunch {
                #expect(Moment.finalReread.isSubset(of: steps.moments), "\(scenario) has no final re-read")
                #expect(steps.idempotenceMoments == [.beforeFinalRelaunch, .afterFinalRelaunch], "\(scenario)")
            }
        }
        #expect(
            Scenario.allCases.filter(\.changesStateAfterUpgrade) == [
                .relaunch, .reinstall, .markerWithoutData, .isolation, .cleanup, .artefactWindow, .reinstallSelf,
                .storagePressure, .passcodeAndBiometry,
            ])
        #expect(Scenario.upgrade.checks == [.readsOldData, .staysSignedIn] && Scenario.malformed.checks == [.malformedKeepsOld])
    }

    @Test("a single run refuses a scenario that does not fit its path")
    func singleRun() throws {
        let plan = try GatePlan(path: BuildPair(old: "v1", new: "v2"), scenarios: [.upgrade])
        #expect(plan.units.map(\.folder) == ["paths/v1-to-v2/upgrade"])
        #expect(throws: GateError.nothingToRun("scenario fresh-install runs on a fresh install, without --from")) {
            try GatePlan(path: BuildPair(old: "v1", new: "v2"), scenarios: [.freshInstall])
        }
    }

    @Test("shards parse i/n", arguments: [("1/1", 1, 1), ("2/5", 2, 5), ("5/5", 5, 5)])
    func shardParses(text: String, index: Int, count: Int) throws {
        let shard = try ShardSpec(parsing: text)
        #expect(shard.index == index && shard.count == count && shard.description == text)
    }

    @Test(
        "malformed or out-of-range shards name the flag and value",
        arguments: [
            ("0/3", "must be I/N with 1 <= I <= N"), ("4/3", "must be I/N with 1 <= I <= N"),
            ("1/0", "must be I/N with 1 <= I <= N"),
            ("1", "is not I/N (two whole numbers, such as 1/4)"), ("a/b", "is not I/N (two whole numbers, such as 1/4)"),
            ("-1/3", "is not I/N (two whole numbers, such as 1/4)"), ("1/3/4", "is not I/N (two whole numbers, such as 1/4)"),
            (" 1/3", "is not I/N (two whole numbers, such as 1/4)"), ("1.5/3", "is not I/N (two whole numbers, such as 1/4)"),
            ("99999999999999999999/3", "is not I/N (two whole numbers, such as 1/4)"),
        ])
    func shardRefused(text: String, reason: String) {
        let error = GateError.invalidValue(field: .shard, value: text, reason: reason)
        #expect(throws: error) { try ShardSpec(parsing: text) }
        // The model names the field; the command line names the flag that sets it.
        #expect(error.description == "shard: \"\(text)\" \(reason)")
        #expect(ExitStatus.report(error) == ("--shard: \"\(text)\" \(reason)", 2))
    }

    @Test("shards partition the plan, deterministically and evenly", arguments: [1, 2, 3, 7, 40])
    func shardsPartition(count: Int) throws {
        let plan = try GatePlan(builds: ["v1", "v2", "v3"], scenarios: Scenario.gateDefault)
        let slices = try (1...count).map { plan.units(in: try ShardSpec(index: $0, count: count)) }
        #expect(slices.flatMap { $0 }.sorted() == plan.units)
        #expect(Set(slices.flatMap { $0 }).count == plan.units.count)
        let sizes = slices.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
        let again = try GatePlan(builds: ["v1", "v2", "v3"], scenarios: Scenario.gateDefault.reversed())
        #expect(try again.units(in: ShardSpec(index: 1, count: count)) == slices[0])
    }

    static func inputs(shard: ShardSpec? = nil, runtime: String = "iOS 17.5") -> RunInputs {
        RunInputs(
            builds: ["v1", "v2"], runtime: RuntimeVersion(runtime)!, caseID: "case-1",
            scenarios: [.upgrade, .freshInstall], faultPlan: FaultPlan(faults: [Fault(.secItemAdd, call: 2, .status(-25308))]),
            buildFiles: ["v1": .init(executable: "aa", entitlements: "bb"), "v2": .init(executable: "cc", entitlements: "dd")],
            runnerVersion: "0.1.0", shard: shard)
    }

    @Test("run.json is stable bytes with sorted keys, and pinned by a golden file")
    func runJSONGolden() throws {
        let text = String(decoding: GateJSON.pretty(Self.inputs(shard: try ShardSpec(parsing: "1/2"))), as: UTF8.self)
        let golden = Golden.folder(of: #filePath) + "/Golden/run.json"
        let difference = Golden.compare(text, toFileAt: golden)
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("the inputs digest ignores the shard but not the inputs")
    func digest() throws {
        let one = Self.inputs(shard: try ShardSpec(parsing: "1/2"))
        let two = Self.inputs(shard: try ShardSpec(parsing: "2/2"))
        #expect(one.digest == two.digest)
        #expect(one.digest.hasPrefix("sha256:") && one.digest.count == 71)
        #expect(Self.inputs(runtime: "iOS 16.4").digest != one.digest)
    }

    @Test("run.json round-trips and names a missing field")
    func readBack() throws {
        let dir = try TemporaryDirectory("runjson")
        let path = dir.file("run.json")
        try GateJSON.pretty(Self.inputs()).write(to: URL(fileURLWithPath: path))
        #expect(try RunInputs.read(from: path) == Self.inputs())
        try Data(#"{"formatVersion":1}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: GateError.malformed(path: path, reason: "field \"builds\" is missing")) { try RunInputs.read(from: path) }
        #expect(throws: GateError.unreadable(path: dir.file("none.json"), reason: "is missing")) {
            try RunInputs.read(from: dir.file("none.json"))
        }
    }

    @Test("SHA-256 matches known vectors")
    func sha256() {
        #expect(GateHash.hex(Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(GateHash.hex(Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            GateHash.hex(Data(repeating: 0x61, count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        )
    }
}
