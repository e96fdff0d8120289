import Foundation
@testable import GateExecution
@testable import GateModel
import SimRuntime
import Testing
import UpgradeContract

/// marker-without-data removes the app's keychain data: what the new build keeps in the keychain must read missing,
/// what it keeps in a file (a protected file, a preference) is still there and must read back. A small app: 1.0 keeps
/// a PIN and a token in the keychain; 2.0 moves the PIN into a protected file and keeps the token in the keychain.
@Suite struct MarkerWithoutDataTests {
    private static let old = BuildDeclaration(secrets: [
        DeclaredItem(label: "pin", store: .keychain(KeychainItemDeclaration(service: "com.example.pins", account: "pin"))),
        DeclaredItem(label: "token", store: .keychain(KeychainItemDeclaration(service: "com.example.pins", account: "token"))),
    ])
    private static let new = BuildDeclaration(secrets: [
        DeclaredItem(label: "pin", store: .propertyList(file: "Library/Application Support/pin.plist", keyPath: "pin")),
        DeclaredItem(label: "token", store: .keychain(KeychainItemDeclaration(service: "com.example.pins", account: "token"))),
    ])

    private func launch(
        _ index: Int, _ build: String, _ mode: LaunchMode, _ results: [(String, StoreLocation, ItemResult)] = []
    )
        -> LaunchRecord
    {
        let items = results.map { name, location, result in
            ItemCheck(
                name: name, location: location, operation: location == .keychain ? "SecItemCopyMatching" : "read",
                status: result == .missing ? -25300 : 0, runtime: "iOS 17.5", result: result)
        }
        return LaunchRecord(
            index: index, build: build, mode: mode, caseID: "c", runtime: .current, termination: .exited(0),
            endedAtCrashPoint: false,
            status: LaunchStatus(build: build, mode: mode, caseID: "c", runtime: "iOS 17.5", items: items, errors: []),
            duration: 0, mutations: [], deviceDirectory: "")
    }

    /// A marker-without-data cell of pins1 to pins2 whose verify launch reads `pin` from its file as `pin`.
    private func cell(pin: ItemResult, token: ItemResult, pinOnDevice: Bool) -> CellEvidence {
        var cell = CellEvidence(
            unit: PlanUnit(path: BuildPair(old: "pins1", new: "pins2"), scenario: .markerWithoutData), runtime: .current,
            caseID: "c")
        cell.declarations = CaseDeclarations(caseID: "c", old: Self.old, new: Self.new)
        cell.seeded = ["pin", "token"]
        var verify = launch(4, "pins2", .verify, [("pin", .plist, pin), ("token", .keychain, token)])
        verify.secretPlaces = pinOnDevice ? ["pin": .legacy] : [:]
        cell.launches = [
            launch(1, "pins1", .seed, [("pin", .keychain, .written), ("token", .keychain, .written)]),
            launch(2, "pins2", .launch), launch(3, "pins2", .launch), verify,
        ]
        return cell
    }

    @Test("the PIN kept in a protected file reads back and the keychain's token reads missing: a PASS that says so")
    func keptInFile() {
        let findings = ReadsOldData.check(cell(pin: .found, token: .missing, pinOnDevice: true))
        #expect(findings.map(\.verdict) == [.pass], "\(findings)")
        #expect(findings[0].message.contains("what the new build keeps outside the keychain (pin) reads back"))
    }

    @Test("the keychain's token reported found, or the file's PIN lost, is a FAIL")
    func failures() {
        let resumed = ReadsOldData.check(cell(pin: .found, token: .found, pinOnDevice: true))
        #expect(resumed.map(\.verdict) == [.fail] && resumed[0].item == "token", "\(resumed)")
        #expect(resumed[0].message.contains("reported found after its keychain data was removed (expected missing)"))
        let lost = ReadsOldData.check(cell(pin: .missing, token: .missing, pinOnDevice: false))
        #expect(lost.map(\.verdict) == [.fail] && lost[0].item == "pin", "\(lost)")
        #expect(lost[0].message.contains("on the device in neither a keychain item the new build can reach nor a legacy store"))
    }

    @Test("a build that keeps every secret in the keychain still expects each to read missing")
    func keychainOnly() {
        var all = cell(pin: .missing, token: .missing, pinOnDevice: false)
        all.declarations = CaseDeclarations(caseID: "c", old: Self.old, new: Self.old)
        #expect(ReadsOldData.check(all).map(\.verdict) == [.pass])
        all.declarations = CaseDeclarations(caseID: "c", old: Self.old, new: Self.old)
        var found = cell(pin: .found, token: .missing, pinOnDevice: true)
        found.declarations = all.declarations
        #expect(ReadsOldData.check(found).map(\.item) == ["pin"])
    }
}
