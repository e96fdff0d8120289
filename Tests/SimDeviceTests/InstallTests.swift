import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

@Suite struct InstallTests {
    @Test("install copies the build, records it and pins the executable's sha256")
    func installRecords() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        let app = try session.install(try fixture.build("v1"))
        #expect(app.record.kind == .install)
        #expect(app.record.replaced == nil)
        #expect(app.record.buildID == "v1")
        #expect(app.record.identity.applicationIdentifier == "TEAM123456.com.example.tiny")
        #expect(app.record.installedAt == fixture.device.record.clock)
        let product = BuiltProducts.executable("TinyApp")
        #expect(app.record.executableSHA256 == SHA256.hexOfFile(atPath: product))
        // Hash the installed bytes themselves (hexOfFile remembers digests by inode, and the
        // installed executable is a hard link to the product).
        let installed = try Data(contentsOf: URL(fileURLWithPath: app.executablePath))
        #expect(SHA256.hash(installed).hexDigits == app.record.executableSHA256)
        #expect(FileManager.default.isExecutableFile(atPath: app.executablePath))
        #expect(FileManager.default.fileExists(atPath: app.appFolder + "/build.json"))
        #expect(FileManager.default.fileExists(atPath: app.appFolder + "/App.entitlements"))
        #expect(session.device.installedApps().map(\.bundleID) == ["com.example.tiny"])
    }

    @Test("an install over the same bundle id upgrades in place: data kept, moved to a new path; bundle under a new UUID")
    func upgradeInPlace() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        let old = try session.install(try fixture.build("v1", buildNumber: "100"))
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        let marker = data.path + "/Documents/marker"
        try Data("kept".utf8).write(to: URL(fileURLWithPath: marker))
        let new = try session.install(try fixture.build("v2", buildNumber: "200"))
        #expect(new.record.kind == .upgrade)
        #expect(new.record.replaced?.buildID == "v1")
        #expect(new.container.uuid != old.container.uuid)
        #expect(!FileManager.default.fileExists(atPath: old.container.path))
        // The data container moved, as iOS may move it on an update: its files came along, and a
        // path stored before the update points nowhere.
        let moved = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(moved.path != data.path && moved.uuid != data.uuid)
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(try String(contentsOfFile: moved.path + "/Documents/marker", encoding: .utf8) == "kept")
        #expect(ContainerDirectory.find(.data, identifier: "com.example.tiny", in: session.layout).map(\.uuid) == [moved.uuid])
        #expect(ContainerDirectory.find(.bundle, identifier: "com.example.tiny", in: session.layout).count == 1)
        #expect(try session.device.installedApp("com.example.tiny").record.buildID == "v2")
    }

    @Test("a lower build number is a downgrade: allowed, and recorded in the install and the history")
    func downgrade() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try fixture.build("v2", buildNumber: "200"))
        let app = try session.install(try fixture.build("v1", buildNumber: "100"))
        #expect(app.record.kind == .downgrade)
        #expect(app.record.replaced?.buildNumber == "200")
        let same = try session.install(try fixture.build("v1", buildNumber: "100"))
        #expect(same.record.kind == .reinstall)
        let history = try String(contentsOfFile: session.layout.historyPath, encoding: .utf8)
        #expect(history.split(separator: "\n").map { $0.contains("\"event\":\"downgrade\"") } == [false, true, false])
    }

    @Test(
        "build numbers order as dotted integers",
        arguments: [
            ("9", "10", ComparisonResult.orderedAscending), ("10.1", "10", .orderedDescending), ("2.0", "2", .orderedSame),
        ])
    func buildNumberOrder(lhs: String, rhs: String, expected: ComparisonResult) {
        #expect(BuildManifest.compareBuildNumbers(lhs, rhs) == expected)
    }

    @Test("uninstall removes the bundle and data containers; keychain and group containers stay")
    func uninstall() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        try session.install(try fixture.build("v1", groups: ["group.com.example.tiny"]))
        let seeded = try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"]))
        #expect(seeded.exitedCleanly)
        try session.uninstall("com.example.tiny")
        #expect(session.device.installedApps().isEmpty)
        #expect(session.device.dataContainer("com.example.tiny") == nil)
        #expect(session.device.groupContainer("group.com.example.tiny") != nil)
        #expect(try session.device.keychainItems().count == 1)
        #expect(throws: DeviceError.notInstalled(bundleID: "com.example.tiny", udid: session.udid)) {
            try session.uninstall("com.example.tiny")
        }
        // A reinstall gets a fresh data container and finds the keychain item.
        try session.install(try fixture.build("v1"))
        let read = try session.launch("com.example.tiny")
        #expect(read.exitedCleanly)
        let status = try String(
            contentsOfFile: try #require(session.device.dataContainer("com.example.tiny")).path
                + "/Documents/tiny-status.json", encoding: .utf8)
        #expect(status.contains("\"found\":true"))
    }

    @Test("erase wipes apps, containers and the keychain, and shuts the device down")
    func erase() throws {
        let fixture = try Fixture()
        let session = try fixture.bootedWithTinyApp()
        _ = try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"]))
        let key = try session.device.digestKey()
        try session.erase()
        #expect(session.device.installedApps().isEmpty)
        for kind in ContainerKind.allCases { #expect(ContainerDirectory.all(kind, in: session.layout).isEmpty) }
        #expect(try session.device.keychainItems().isEmpty)
        #expect(session.record.state == .shutdown)
        #expect(session.record.lockState == .beforeFirstUnlock)
        #expect(session.record.name == "Test Phone")
        #expect(try session.device.digestKey() == key)
    }

    @Test("delete removes the device folder")
    func delete() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.delete()
        #expect(!FileManager.default.fileExists(atPath: fixture.device.layout.directory))
        #expect(fixture.set.list().devices.isEmpty)
    }
}
