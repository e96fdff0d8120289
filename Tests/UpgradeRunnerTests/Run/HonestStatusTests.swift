import Foundation
@testable import GateExecution
@testable import GateModel
import GateTestSupport
import SimDevice
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// honest-status: the status file is held to the contract and to the device, and each launch of an
/// upgrade cell run again on a copy with the device clock moved must give the same bytes.
@Suite("honest-status")
struct HonestStatusTests {
    static let catalog = BuildCatalog(folder: RunFolders.repositoryBuilds, productsFolder: BuiltProducts.directory.path)

    /// A fresh booted device (nothing installed) and the check of a v2 verify launch of case `hs` on it:
    /// the launch's record made as ``ScenarioDevice`` makes it (its status file read, the device read
    /// right after it), then judged by honest-status.
    private func fixture() throws -> (TemporaryDirectory, DeviceSession, Check) {
        let folder = try TemporaryDirectory("honest-status")
        let session = try DeviceSet(root: folder.path).create(name: "d", runtime: .current, clock: ScenarioDevice.epoch)
            .acquire()
        try session.boot(lockState: .unlocked)
        return (folder, session, Check(build: try Self.catalog.build("v2"), labels: ["authToken", "session"]))
    }

    private struct Check {
        let build: Build
        let labels: [String]

        func problems(_ data: Data?, exitedCleanly: Bool, on device: DeviceSession) -> [String] {
            var record = LaunchRecord(
                index: 3, build: "v2", mode: .verify, caseID: "hs", runtime: .current,
                termination: exitedCleanly ? .exited(0) : .signaled(9), endedAtCrashPoint: false, duration: 0, mutations: [],
                deviceDirectory: device.layout.directory)
            record.read(status: data)
            do {
                try record.locateSecrets(on: device, app: build, locator: SecretLocator(caseID: "hs", labels: labels))
            } catch {
                return ["the device could not be read: \(error)"]
            }
            let declarations = CaseDeclarations(
                caseID: "hs",
                old: BuildDeclaration(
                    secrets: labels.map {
                        DeclaredItem(label: $0, store: .preference(key: $0, suite: nil))
                    }), new: nil)
            return HonestStatus.problems(record, in: CellContext(declarations: declarations, newBuild: "v2", checkers: []))
        }
    }

    private func status(_ items: [ItemCheck]) -> LaunchStatus {
        LaunchStatus(build: "v2", mode: .verify, caseID: "hs", runtime: RuntimeVersion.current.description, items: items)
    }

    private func item(
        _ name: String, _ result: ItemResult, _ status: Int32, at location: StoreLocation = .keychain
    )
        -> ItemCheck
    {
        ItemCheck(
            name: name, location: location, operation: "SecItemCopyMatching", status: status,
            runtime: RuntimeVersion.current.description, result: result)
    }

    @Test("an honest report passes: missing with -25300, locked with -25308, a file missing with ENOENT")
    func honest() throws {
        let (folder, device, honesty) = try fixture()
        defer { withExtendedLifetime(folder) {} }
        let file = try status([
            item("authToken", .missing, -25300), item("session", .locked, -25308), item("cache", .missing, 2, at: .file),
        ]).encoded()
        #expect(honesty.problems(file, exitedCleanly: true, on: device) == [])
    }

    @Test("a word that disagrees with its OSStatus fails, naming the item, the word and the status")
    func wordAgainstStatus() throws {
        let (folder, device, honesty) = try fixture()
        defer { withExtendedLifetime(folder) {} }
        let file = try status([item("cache", .found, -25308), item("session", .missing, 0)]).encoded()
        let problems = honesty.problems(file, exitedCleanly: true, on: device)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("cache: found with SecItemCopyMatching") && $0.contains("-25308") })
        #expect(problems.contains { $0.hasPrefix("session: missing") })
    }

    @Test("ground truth: a secret reported found that the device does not hold fails; the app's word is not enough")
    func foundButAbsent() throws {
        let (folder, device, honesty) = try fixture()
        defer { withExtendedLifetime(folder) {} }
        let file = try status([item("authToken", .found, 0)]).encoded()
        #expect(
            honesty.problems(file, exitedCleanly: true, on: device) == [
                "authToken: reported found at keychain, but the case's value is in no keychain item the app can reach"
            ])
    }

    @Test("a file of another contract version, a field or a word outside the contract, or another launch's names fail")
    func contractAndNames() throws {
        let (folder, device, honesty) = try fixture()
        defer { withExtendedLifetime(folder) {} }
        let canonical = try status([]).encoded()
        var object = try #require(try JSONSerialization.jsonObject(with: canonical) as? [String: Any])
        object["verifiedAt"] = "2026-01-01T00:00:00Z"
        let extra = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
        #expect(honesty.problems(extra, exitedCleanly: true, on: device).first?.hasPrefix("not the contract's encoding") == true)
        object["formatVersion"] = 2
        let newer = try JSONSerialization.data(withJSONObject: object)
        #expect(honesty.problems(newer, exitedCleanly: true, on: device).first?.contains("contract version 1") == true)
        let word = try status([item("authToken", .missing, -25300)]).encoded()
        let outside = Data(String(decoding: word, as: UTF8.self).replacingOccurrences(of: "\"missing\"", with: "\"absent\"").utf8)
        #expect(honesty.problems(outside, exitedCleanly: true, on: device).first?.hasPrefix("not a status file") == true)
        var other = status([])
        other.caseID = "another"
        other.build = "v3"
        let names = honesty.problems(try other.encoded(), exitedCleanly: true, on: device)
        #expect(names.contains("field \"caseID\" says \"another\", but the launch was \"hs\""), "\(names)")
        #expect(names.contains("field \"build\" says \"v3\", but the launch was \"v2\""), "\(names)")
    }

    @Test("a clean exit without a status file fails; a crash without one is for the other conditions")
    func missingFile() throws {
        let (folder, device, honesty) = try fixture()
        defer { withExtendedLifetime(folder) {} }
        #expect(honesty.problems(nil, exitedCleanly: true, on: device) == ["the launch exited 0 but wrote no status file"])
        #expect(honesty.problems(nil, exitedCleanly: false, on: device) == [])
    }

    @Test("the clock offsets derive from the case id alone: a twin's 1 to 400 days, a late upgrade's 365 to 730")
    func offset() {
        #expect(ClockTwin.offset(caseID: "a") == ClockTwin.offset(caseID: "a"))
        #expect(ClockTwin.offset(caseID: "a") != ClockTwin.offset(caseID: "b"))
        #expect(LateUpgradeSteps.offset(caseID: "a") == LateUpgradeSteps.offset(caseID: "a"))
        #expect(LateUpgradeSteps.offset(caseID: "a") != LateUpgradeSteps.offset(caseID: "b"))
        for id in ["a", "b", "base", "demo", ""] {
            #expect((86_400...(400 * 86_400)).contains(ClockTwin.offset(caseID: id)))
            #expect((365 * 86_400..<(730 * 86_400)).contains(LateUpgradeSteps.offset(caseID: id)))
        }
    }

    @Test(
        "honest-status at two clocks: an upgrade cell runs again with every date moved; clock-in-status fails at its verify, clock-in-launch at its plain launch, v2 at none",
        arguments: [
            ("v2", nil), ("clock-in-status", "03-clock-in-status-verify"), ("clock-in-launch", "02-clock-in-launch-launch"),
        ])
    func clockShifted(build: String, failing: String?) throws {
        let cli = try CLI("honest")
        let out = cli.directory.file(build)
        let result = cli.run(
            ["run", "--from", "v1", "--to", build, "--scenario", "upgrade", "--case-id", "hs", "--out", out, "--quiet"],
            environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
        #expect(result.code == (failing == nil ? 0 : 1), "\(build): \(result.output)\(result.error)")
        let report = try GateDocument.read(from: out + "/gate.json").report
        let honest = report.allFindings.filter { $0.condition == .honestStatus }
        let reads = report.allFindings.filter { $0.condition == .readsOldData }
        #expect(reads.map(\.verdict) == [.pass], "\(build)")
        let cell = out + "/paths/v1-to-\(build)/upgrade/"
        for stem in ["01-v1-seed", "02-\(build)-launch", "03-\(build)-verify"] {
            let real = FileManager.default.contents(atPath: cell + "status/\(stem).json")
            let twin = FileManager.default.contents(atPath: cell + "clock-shifted/status/\(stem).json")
            #expect(real != nil && twin != nil, "\(stem)")
            #expect((real == twin) == (stem != failing), "\(build) \(stem)")
        }
        if let failing {
            // One finding, the clock's: every file on its own is honest.
            #expect(honest.map(\.verdict) == [.fail], "\(honest)")
            #expect(honest.first?.message.contains("every date of the cell moved by") == true, "\(honest)")
            #expect(honest.first?.item == failing)
        } else {
            #expect(honest.map(\.verdict) == [.pass])
            #expect(honest.first?.message.contains("each of the 3 launch(es) wrote the same bytes") == true)
        }
    }
}
