import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// The gate's scenarios, each on its own device, through real launches.
@Suite struct ScenarioTests {
    @Test(
        "malformed legacy data stays where it is, the migration fails with a code, and the app does not crash",
        arguments: ["v2", "v3"])
    func malformedKeepsOld(_ build: String) throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seedMalformed)
        try device.install(build)
        let launch = try device.launch(.launch)
        #expect(launch.migration?.state == .failed)
        #expect(launch.migration?.reason?.contains("keysLeftBehind(2)") == true)
        #expect(launch.migration?.reason?.contains("-26275") == true, "errSecDecode beside the step")
        #expect(launch.result("authToken", "preferences") == "kept")
        #expect(launch.result("refreshToken", "preferences") == "kept")
        #expect(launch.schemaVersion == nil, "the version did not advance")
        #expect(
            launch.legacy
                == LegacyState(
                    preferenceKeys: ["authToken", "refreshToken"], archive: true,
                    artefacts: ["FeedCache.dat", "Preferences.plist", "SessionCache.archive"]))
        let stored = try device.storedPreferences()
        #expect(stored["authToken"] is NSNumber && stored["refreshToken"] is Data, "the malformed values are untouched")
        // Relaunches retry and fail the same way: the same bytes each time.
        let retry = try device.launch(.launch)
        #expect(retry.sweep == .markerPresent && retry.migration == launch.migration)
        let retryBytes = try device.statusData()
        try device.launch(.launch)
        #expect(try device.statusData() == retryBytes)
    }

    @Test(
        "one malformed preference alone does not keep the valid stores from migrating: later steps still run, the version stays",
        arguments: ["v2", "v3"])
    func malformedStoreAlone(_ build: String) throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seedMalformed, extra: [LaunchMode.malformedStoreArgument, "authToken"])
        let stored = try device.storedPreferences()
        #expect(stored["authToken"] is NSNumber && stored["refreshToken"] is String, "authToken alone is malformed")
        try device.install(build)
        let launch = try device.launch(.launch)
        #expect(launch.migration?.state == .failed && launch.migration?.to == 0, "the first failed step is reported")
        #expect(launch.result("authToken", "preferences") == "kept")
        #expect(launch.schemaVersion == nil, "the version did not advance")
        #expect(launch.legacy?.archive == false, "step 1->2 ran after step 0->1 failed")
        let verify = try device.launch(.verify)
        #expect(Array(verify.secretResults.prefix(4)) == ["missing", "found", "found", "found"])
    }

    @Test("a corrupt archive fails step 1->2 gracefully: the archive stays, the version does not advance")
    func corruptArchive() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        let archive = try device.container() + "/Library/Application Support/Session.archive"
        try Data("definitely not an archive".utf8).write(to: URL(fileURLWithPath: archive))
        try device.install("v2")
        let launch = try device.launch(.launch)
        #expect(
            launch.migration
                == MigrationOutcome(
                    state: .failed, from: 0, to: 1,
                    reason: "step 1->2: corruptArchive NSKeyedUnarchiver -26275"))
        #expect(launch.result("session", "archive") == "kept")
        #expect(launch.legacy?.archive == true && launch.schemaVersion == nil)
        let verify = try device.launch(.verify)
        #expect(verify.secretResults == ["found", "found", "missing", "found"], "step 0->1 moved the tokens")
    }

    @Test("a launch while locked defers the sweep and the migration, touches nothing, and migrates once unlocked")
    func lockedLaunchDefers() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install("v3")
        try device.session.lock()
        let locked = try device.launch(.launch, extra: ["-UITestProtectedDataTimeout", "0.2"])
        #expect(locked.sweep == .deferred)
        #expect(locked.migration == MigrationOutcome(state: .deferred, reason: "protected data unavailable"))
        #expect(locked.items.isEmpty && locked.legacy == nil)
        #expect(try device.storedPreferences()["authToken"] != nil)
        let verifyLocked = try device.launch(.verify)
        #expect(verifyLocked.result("deviceKey") == "locked", "WhenUnlocked answers -25308, never missing")
        #expect(verifyLocked.items.first { $0.name == "deviceKey" }?.status == -25308)
        try device.session.unlock()
        let unlocked = try device.launch(.launch)
        #expect(unlocked.migration == MigrationOutcome(state: .migrated, from: 0, to: 3))
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
    }

    @Test("a prewarmed launch before first unlock reads empty preferences and does not take that for 'nothing to migrate'")
    func prewarmDefers() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install("v2")
        try device.session.shutdown()
        try device.session.boot(lockState: .beforeFirstUnlock)
        let prewarm = try device.launch(.launch, extra: ["-UITestProtectedDataTimeout", "0.2"])
        #expect(prewarm.sweep == .deferred && prewarm.migration?.state == .deferred)
        try device.session.unlock()
        let launch = try device.launch(.launch)
        #expect(launch.sweep == .markedUpgrade)
        #expect(launch.migration == MigrationOutcome(state: .migrated, from: 0, to: 2))
    }

    @Test("a reinstall sweeps the keychain: the old session does not come back")
    func reinstallSweeps() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install("v2")
        try device.launch(.launch)
        try device.session.uninstall(LedgerDevice.bundleID)
        #expect(try device.items().count == 5, "items outlive the app")
        try device.install("v2")
        let launch = try device.launch(.launch)
        #expect(launch.sweep == .swept)
        #expect(launch.migration == MigrationOutcome(state: .migrated, from: 0, to: 2), "a fresh start at schema 0")
        #expect(try device.launch(.verify).secretResults == ["missing", "missing", "missing", "missing"])
        let again = try device.launch(.launch)
        #expect(again.sweep == .markerPresent)
    }

    @Test("cleanup deletes exactly the case's items and leaves another case's item", arguments: ["v2", "v3"])
    func cleanupExact(_ build: String) throws {
        let device = try LedgerDevice()
        try device.install(build)
        try device.launch(.seed, caseID: "othercase0001")
        try device.launch(.seed)
        let cleanup = try device.launch(.cleanup)
        #expect(cleanup.items.allSatisfy { $0.operation == "SecItemDelete" && $0.result == .removed })
        #expect(try device.items().map(\.account) == ["deviceKey.othercase0001"])
        let again = try device.launch(.cleanup)
        #expect(again.items.allSatisfy { $0.result == .missing && $0.status == -25300 })
    }

    @Test("v3's janitor keeps the non-secret artefacts for 30 days after the migration and removes them after")
    func artefactWindow() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install("v3")
        let first = try device.launch(.launch)
        #expect(first.result(LedgerNamesForTests.migratedAt) == "written")
        #expect(first.legacy?.artefacts.count == 3)
        try device.session.advanceClock(by: 29 * 86_400)
        #expect(try device.launch(.launch).legacy?.artefacts.count == 3, "29 days: kept")
        try device.session.advanceClock(by: 2 * 86_400)
        let after = try device.launch(.launch)
        #expect(after.legacy?.artefacts == [])
        #expect(after.items.map(\.result) == [.removed, .removed, .removed])
        #expect(try device.launch(.launch).items.isEmpty, "once removed, nothing more to do")
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
    }

    @Test("no status file of any mode holds a seeded secret, raw or in base64, hex or SHA-256 hex")
    func statusFilesHoldNoSecret() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        for mode in [LaunchMode.seed, .verify, .launch] { try device.launch(mode) }
        for build in ["v2", "v3"] {
            try device.install(build)
            for mode in [LaunchMode.launch, .verify, .seed, .verify, .cleanup] { try device.launch(mode) }
        }
        try device.install("v1")
        try device.launch(.seedMalformed)
        try device.install("v3")
        try device.launch(.launch)
        try device.launch(.seedMalformed)
        try device.launch(.verify)
        let secrets = CaseSecrets(caseID: device.caseID)
        let log = try String(
            contentsOfFile: device.session.layout.logsDirectory + "/\(LedgerDevice.bundleID).log", encoding: .utf8)
        for (label, secret) in secrets.labelled(["authToken", "refreshToken", "session", "deviceKey"]) {
            let bytes = Data(secret.utf8)
            let forms = [
                secret, bytes.base64EncodedString(), bytes.map { String(format: "%02x", $0) }.joined(),
                SHA256.hash(bytes).map { String(format: "%02x", $0) }.joined(),
            ]
            for (index, status) in device.statuses.enumerated() {
                let text = String(decoding: status, as: UTF8.self)
                for form in forms {
                    #expect(!text.localizedCaseInsensitiveContains(form), "status \(index) holds \(label)")
                }
            }
            #expect(!forms.contains { log.contains($0) }, "the launch log holds \(label)")
        }
        #expect(device.statuses.count == 17)
    }
}

/// Names the tests check, spelled out so a rename in the builds shows here.
enum LedgerNamesForTests {
    static let migratedAt = "vault.migratedAt"
}
