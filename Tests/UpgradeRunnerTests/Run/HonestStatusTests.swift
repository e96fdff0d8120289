import Foundation
@testable import GateExecution
@testable import GateModel
import SimDevice
import SimRuntime
import TestSupport
import Testing
@testable import UpgradeRunner

/// honest-status: the status file is held to the contract and to the device, and a verify with the
/// device clock moved must give the same bytes.
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

    @Test("the clock offset derives from the case id alone: between 1 and 400 days, the same on every run")
    func offset() {
        #expect(ClockShift.offset(caseID: "a") == ClockShift.offset(caseID: "a"))
        #expect(ClockShift.offset(caseID: "a") != ClockShift.offset(caseID: "b"))
        for id in ["a", "b", "base", "demo", ""] {
            #expect((86_400...(400 * 86_400)).contains(ClockShift.offset(caseID: id)))
        }
    }

    @Test("clock-in-status: only the clock-shifted verify tells it; v2's verify is the same bytes with the clock moved")
    func clockShifted() throws {
        let cli = try CLI("honest")
        for (build, code) in [("v2", Int32(0)), ("clock-in-status", 1)] {
            let out = cli.directory.file(build)
            let result = cli.run(
                ["run", "--from", "v1", "--to", build, "--scenario", "upgrade", "--case-id", "hs", "--out", out, "--quiet"],
                environment: ["UPGRADE_RUNNER_BUILDS": RunFolders.repositoryBuilds])
            #expect(result.code == code, "\(build): \(result.output)\(result.error)")
            let report = try GateDocument.read(from: out + "/gate.json").report
            let honest = report.allFindings.filter { $0.condition == .honestStatus }
            let reads = report.allFindings.filter { $0.condition == .readsOldData }
            #expect(reads.map(\.verdict) == [.pass], "\(build)")
            let folder = out + "/paths/v1-to-\(build)/upgrade/status/"
            let first = FileManager.default.contents(atPath: folder + "03-\(build)-verify.json")
            let second = FileManager.default.contents(atPath: folder + "04-\(build)-verify.json")
            #expect(first != nil)
            if build == "v2" {
                #expect(honest.map(\.verdict) == [.pass])
                #expect(first == second)
            } else {
                // One finding, the clock's: every file on its own is honest.
                #expect(honest.map(\.verdict) == [.fail], "\(honest)")
                #expect(honest.first?.message.contains("clock moved") == true, "\(honest)")
                #expect(honest.first?.item == "04-clock-in-status-verify")
                #expect(first != second)
            }
        }
    }
}
