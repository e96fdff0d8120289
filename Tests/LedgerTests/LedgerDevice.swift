import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport

/// A fresh simulated device with the repository's Ledger builds (builds/v1..v3), for one test.
final class LedgerDevice: @unchecked Sendable {
    static let bundleID = "com.example.ledger"
    static let buildsFolder = BuiltProducts.repositoryBuilds

    let directory: TemporaryDirectory
    let session: DeviceSession
    let caseID: String
    /// Every status file the test's launches wrote, in order.
    private(set) var statuses: [Data] = []

    init(caseID: String = "c0ffee123456", clock: Date = Date(timeIntervalSince1970: 1_714_521_600)) throws {
        directory = try TemporaryDirectory("ledger")
        let device = try DeviceSet(root: directory.file("devices")).create(name: "Ledger Phone", clock: clock)
        session = try device.acquire()
        try session.boot()
        self.caseID = caseID
    }

    deinit { session.release() }

    var catalog: BuildCatalog { BuildCatalog(folder: Self.buildsFolder, productsFolder: BuiltProducts.directory.path) }

    func install(_ build: String) throws { _ = try session.install(try catalog.build(build)) }

    /// Launches the installed build in `mode` for the test's case and returns its status file.
    @discardableResult
    func launch(
        _ mode: LaunchMode, extra: [String] = [], caseID: String? = nil,
        faultPlan: FaultPlan = .none
    ) throws -> LaunchStatus {
        let arguments = (mode.argument.map { [$0] } ?? []) + [LaunchMode.caseIDArgument, caseID ?? self.caseID] + extra
        let result = try session.launch(Self.bundleID, LaunchOptions(arguments: arguments, faultPlan: faultPlan, timeout: 20))
        #expect(result.exitedCleanly, "\(mode) exited \(result.termination)")
        let data = try #require(result.statusFile, "\(mode) wrote no status file")
        statuses.append(data)
        return try LaunchStatus.decode(data)
    }

    /// The bytes of the last status file (the last launch returned it).
    func statusData() throws -> Data { try #require(statuses.last) }

    /// The app's data container.
    func container() throws -> String { try #require(session.device.dataContainer(Self.bundleID)).path }

    /// The stored preferences of the app.
    func storedPreferences() throws -> [String: Any] {
        let path = try container() + "/Library/Preferences/\(Self.bundleID).plist"
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }

    /// The keychain's items as (account, accessible), sorted by account.
    func items() throws -> [(account: String, accessible: String)] {
        try session.device.keychainItems().map { ($0.account ?? "", $0.accessible) }.sorted { $0.account < $1.account }
    }
}

extension LaunchStatus {
    /// The result word of the item `name` (at `location`, when given; nil when the status has none).
    func result(_ name: String, _ location: String? = nil) -> String? {
        items.first { $0.name == name && (location == nil || $0.location.rawValue == location) }?.result.rawValue
    }

    /// The results of the verify mode's four secrets.
    var secretResults: [String] {
        ["authToken", "refreshToken", "session", "deviceKey"].map { result($0) ?? "none" }
    }
}
