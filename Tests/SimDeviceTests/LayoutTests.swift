import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

@Suite struct LayoutTests {
    @Test("a new device is laid out like a CoreSimulator device")
    func newDeviceLayout() throws {
        let fixture = try Fixture()
        let layout = fixture.device.layout
        #expect(layout.directory == fixture.set.root + "/" + fixture.device.udid)
        let record =
            try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: layout.recordPath)))
            as? [String: Any]
        #expect(record?["name"] as? String == "Test Phone")
        #expect(record?["runtime"] as? String == "iOS 17.5")
        #expect(record?["state"] as? String == "shutdown")
        #expect(record?["lockState"] as? String == "beforeFirstUnlock")
        #expect(record?["clock"] as? String == "2024-05-01T00:00:00Z")
        #expect(layout.keychainPath.hasSuffix("/data/Library/Keychains/keychain-2-debug.db"))
        #expect(FileManager.default.fileExists(atPath: layout.keychainPath))
        for kind in ContainerKind.allCases {
            var isFolder: ObjCBool = false
            #expect(
                FileManager.default.fileExists(atPath: layout.containersDirectory(kind), isDirectory: &isFolder)
                    && isFolder.boolValue)
        }
        #expect(layout.containersDirectory(.bundle).hasSuffix("data/Containers/Bundle/Application"))
        #expect(layout.containersDirectory(.data).hasSuffix("data/Containers/Data/Application"))
        #expect(layout.containersDirectory(.appGroup).hasSuffix("data/Containers/Shared/AppGroup"))
        #expect(try String(contentsOfFile: layout.lockStatePath, encoding: .utf8) == "beforeFirstUnlock\n")
        #expect(try fixture.device.digestKey().count == 32)
    }

    @Test("containers are found through their metadata file, never by folder name")
    func containersByMetadata() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try fixture.build("v1", groups: ["group.com.example.tiny"]))
        let layout = fixture.device.layout
        let data = try #require(session.device.dataContainer("com.example.tiny"))
        // Rename the folder: the container is still found, under its new name.
        let moved = layout.containersDirectory(.data) + "/" + UUID().uuidString
        try FileManager.default.moveItem(atPath: data.path, toPath: moved)
        #expect(session.device.dataContainer("com.example.tiny")?.path == moved)
        // A folder named like a bundle id but without metadata is not a container.
        try FileManager.default.createDirectory(
            atPath: layout.containersDirectory(.data) + "/com.example.other",
            withIntermediateDirectories: true)
        #expect(session.device.dataContainer("com.example.other") == nil)
        let metadata =
            try PropertyListSerialization.propertyList(
                from: try Data(contentsOf: URL(fileURLWithPath: moved + "/" + ContainerDirectory.metadataFileName)), format: nil)
            as? [String: Any]
        #expect(metadata?["MCMMetadataIdentifier"] as? String == "com.example.tiny")
        #expect(session.device.groupContainer("group.com.example.tiny") != nil)
        for folder in ["Documents", "Library/Preferences", "Library/Caches", "tmp"] {
            #expect(FileManager.default.fileExists(atPath: moved + "/" + folder))
        }
    }

    @Test("devices are listed by name and opened by UDID or name")
    func listAndOpen() throws {
        let fixture = try Fixture()
        let second = try fixture.set.create(name: "Another", runtime: RuntimeVersion(major: 16, minor: 4))
        #expect(fixture.set.list().devices.map(\.record.name) == ["Another", "Test Phone"])
        #expect(try fixture.set.device("Another").udid == second.udid)
        #expect(try fixture.set.device(fixture.device.udid).record.name == "Test Phone")
        #expect(try fixture.set.device(second.udid).record.runtime == RuntimeVersion(major: 16, minor: 4))
        _ = try fixture.set.create(name: "Another")
        #expect(throws: DeviceError.self) { try fixture.set.device("Another") }
    }

    @Test("the devices root comes from the flag, then the environment, then the home folder")
    func devicesRoot() {
        #expect(DeviceSet.resolveRoot(flag: "/x", environment: ["UPGRADE_RUNNER_DEVICES": "/y", "HOME": "/h"]) == "/x")
        #expect(DeviceSet.resolveRoot(flag: nil, environment: ["UPGRADE_RUNNER_DEVICES": "/y", "HOME": "/h"]) == "/y")
        #expect(DeviceSet.resolveRoot(flag: nil, environment: ["HOME": "/h"]) == "/h/.upgrade-runner/devices")
    }
}
