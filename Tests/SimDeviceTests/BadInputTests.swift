import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// Each bad input gets a one-line error that names the thing, and changes nothing.
@Suite struct BadInputTests {
    private func oneLine(_ error: DeviceError) -> String {
        let text = "\(error)"
        #expect(!text.contains("\n"))
        return text
    }

    @Test("an unknown device is named")
    func unknownDevice() throws {
        let fixture = try Fixture()
        let error = try #require(throws: DeviceError.self) { try fixture.set.device("Nope") }
        #expect(oneLine(error).contains("unknown device \"Nope\""))
    }

    @Test(
        "a malformed device.json names the file and the field",
        arguments: [
            ("{not json", "not valid JSON"),
            (#"{"udid": "X"}"#, "field \"formatVersion\" is missing"),
        ])
    func malformedRecord(contents: String, reason: String) throws {
        let fixture = try Fixture()
        let layout = fixture.device.layout
        var json = contents
        if contents.contains("udid") {
            json = contents.replacingOccurrences(of: "\"X\"", with: "\"\(fixture.device.udid)\"")
        }
        try json.write(toFile: layout.recordPath, atomically: true, encoding: .utf8)
        let before = BuildFixture.tree(fixture.set.root)
        let error = try #require(throws: DeviceError.self) { try fixture.set.device(fixture.device.udid) }
        #expect(oneLine(error) == "\(layout.recordPath): \(reason)")
        #expect(fixture.set.list().problems.count == 1)
        #expect(BuildFixture.tree(fixture.set.root) == before)
    }

    @Test("a wrong field type in device.json is named")
    func wrongFieldType() throws {
        let fixture = try Fixture()
        var record =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture.device.layout.recordPath)))
            as! [String: Any]
        record["lockState"] = "sideways"
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: fixture.device.layout.recordPath))
        let error = try #require(throws: DeviceError.self) { try fixture.set.device(fixture.device.udid) }
        #expect(oneLine(error).contains("field \"lockState\""))
    }

    @Test("a device.json from a newer upgrade-runner is refused, not misread")
    func tooNew() throws {
        let fixture = try Fixture()
        let path = fixture.device.layout.recordPath
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 2")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: DeviceError.self) { try fixture.set.device(fixture.device.udid) }
        #expect(oneLine(error).hasPrefix("\(path): field \"formatVersion\" is 2, newer than"))
    }

    enum BuildDamage: String, CaseIterable, Sendable {
        case noManifest, badJSON, missingField, wrongType, idMismatch, noEntitlements, badEntitlements, wrongBundle, noExecutable
    }

    @Test("a bad build folder is named and the device is left as it was", arguments: BuildDamage.allCases)
    func badBuild(damage: BuildDamage) throws {
        let fixture = try Fixture()
        let folder = try BuildFixture.write(in: fixture.builds, id: "v9")
        let manifest = folder + "/build.json"
        func edit(_ change: (inout [String: Any]) -> Void) throws {
            var object =
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as! [String: Any]
            change(&object)
            try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: manifest))
        }
        let expected: String
        switch damage {
        case .noManifest:
            try FileManager.default.removeItem(atPath: manifest)
            expected = "\(manifest): build manifest is missing"
        case .badJSON:
            try "{".write(toFile: manifest, atomically: true, encoding: .utf8)
            expected = "\(manifest): not valid JSON"
        case .missingField:
            try edit { $0.removeValue(forKey: "executable") }
            expected = "\(manifest): field \"executable\" is missing"
        case .wrongType:
            try edit { $0["schemaVersion"] = "two" }
            expected = "\(manifest): field \"schemaVersion\" is not an integer"
        case .idMismatch:
            try edit { $0["id"] = "v8" }
            expected = "\(manifest): field \"id\" is \"v8\" but the folder is v9"
        case .noEntitlements:
            try FileManager.default.removeItem(atPath: folder + "/App.entitlements")
            expected = "\(folder)/App.entitlements: entitlements file named by \(manifest) is missing"
        case .badEntitlements:
            try "<plist><dict><key>".write(toFile: folder + "/App.entitlements", atomically: true, encoding: .utf8)
            expected = "\(folder)/App.entitlements: not a property list (Encountered unexpected EOF)"
        case .wrongBundle:
            try edit { $0["bundleID"] = "com.example.other" }
            expected =
                "\(folder)/App.entitlements: \"application-identifier\" TEAM123456.com.example.tiny does not name bundle id com.example.other of \(manifest)"
        case .noExecutable:
            try edit { $0["executable"] = "NoSuchApp" }
            expected = "build v9: executable \"NoSuchApp\" not found in products folder \(BuiltProducts.directory.path)"
        }
        let before = BuildFixture.tree(fixture.directory.path)
        let error = try #require(throws: DeviceError.self) { try fixture.catalog.build("v9") }
        #expect(oneLine(error) == expected)
        #expect(BuildFixture.tree(fixture.directory.path) == before)
    }

    @Test("an unknown build id names the builds folder")
    func unknownBuild() throws {
        let fixture = try Fixture()
        let error = try #require(throws: DeviceError.self) { try fixture.catalog.build("v7") }
        #expect(oneLine(error) == "unknown build \"v7\" (no \(fixture.builds)/v7/build.json)")
    }

    @Test("a devices root that is not writable is named")
    func rootNotWritable() throws {
        let directory = try TemporaryDirectory("root")
        // A regular file where a folder should be: not writable even for root, unlike a chmod.
        try "x".write(toFile: directory.file("file"), atomically: true, encoding: .utf8)
        let set = DeviceSet(root: directory.file("file/devices"))
        let error = try #require(throws: DeviceError.self) { try set.create(name: "x") }
        #expect(oneLine(error).hasPrefix("\(directory.file("file/devices")) is not writable"))
        #expect(try String(contentsOfFile: directory.file("file"), encoding: .utf8) == "x")
    }
}
