import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// Real launches of the Ledger builds on a simulated device, as the runner drives them.
@Suite struct UpgradePathTests {
    @Test("v1 seed, upgrade to v2, launch, verify: everything found in the keychain, the legacy stores gone")
    func v1ToV2() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        let seed = try device.launch(.seed)
        #expect(seed.items.allSatisfy { $0.result == .written && $0.status == 0 })
        #expect(
            seed.legacy
                == LegacyState(
                    preferenceKeys: ["authToken", "refreshToken"], archive: true,
                    artefacts: ["FeedCache.dat", "Preferences.plist", "SessionCache.archive"]))
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"], "v1 reads what it seeded")

        try device.install("v2")
        let launch = try device.launch(.launch)
        #expect(launch.sweep == .markedUpgrade, "an upgrade from a build without the marker is not a reinstall")
        #expect(launch.migration == MigrationOutcome(state: .migrated, from: 0, to: 2))
        #expect(launch.schemaVersion == 2)
        let verify = try device.launch(.verify)
        #expect(verify.secretResults == ["found", "found", "found", "found"])
        #expect(verify.legacy?.preferenceKeys == [] && verify.legacy?.archive == false)
        #expect(verify.legacy?.artefacts.count == 3, "v2 has no artefact window: non-secret artefacts stay")
        #expect(try device.storedPreferences().keys.sorted() == ["vault.installMarker"])
        let migrated = try device.items().filter { ["authToken", "refreshToken", "session"].contains($0.account) }
        #expect(migrated.map(\.accessible) == ["cku", "cku", "cku"])
    }

    @Test("skip a version: v1 seed, upgrade straight to v3, every step runs in order")
    func v1ToV3() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install("v3")
        let launch = try device.launch(.launch)
        #expect(launch.migration == MigrationOutcome(state: .migrated, from: 0, to: 3))
        let verify = try device.launch(.verify)
        #expect(verify.secretResults == ["found", "found", "found", "found"])
        #expect(verify.result("vault.migratedAt") == "found")
        #expect(verify.schemaVersion == 3)
        #expect(try device.items().allSatisfy { $0.accessible == "cku" }, "step 2->3 tightened every item, the v1 one too")
    }

    @Test("v2 seed, upgrade to v3: the default-accessibility device key is tightened, the data reads back")
    func v2ToV3() throws {
        let device = try LedgerDevice()
        try device.install("v2")
        try device.launch(.seed)
        #expect(try device.items().first { $0.account.hasPrefix("deviceKey.") }?.accessible == "ak")
        try device.install("v3")
        let launch = try device.launch(.launch)
        #expect(launch.sweep == .markerPresent)
        #expect(launch.migration == MigrationOutcome(state: .migrated, from: 2, to: 3))
        #expect(launch.result("deviceKey.\(device.caseID)") == "written")
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
        #expect(try device.items().allSatisfy { $0.accessible == "cku" })
    }

    @Test(
        "relaunching the new build changes nothing: the second and third status files are byte-identical",
        arguments: ["v2", "v3"])
    func idempotentRelaunch(_ build: String) throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        try device.install(build)
        try device.launch(.launch)
        let second = try device.launch(.launch)
        let secondBytes = try device.statusData()
        let third = try device.launch(.launch)
        #expect(try device.statusData() == secondBytes)
        #expect(second == third)
        #expect(second.migration?.state == .upToDate)
        #expect(second.items.isEmpty, "nothing written, nothing removed")
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
    }

    @Test("the same inputs give the same status bytes on two devices")
    func deterministicAcrossDevices() throws {
        var runs: [[Data]] = []
        for _ in 0..<2 {
            let device = try LedgerDevice()
            try device.install("v1")
            try device.launch(.seed)
            try device.install("v3")
            try device.launch(.launch)
            try device.launch(.verify)
            runs.append(device.statuses)
        }
        #expect(runs[0] == runs[1])
    }
}
