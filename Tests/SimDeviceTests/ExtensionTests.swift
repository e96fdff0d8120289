import Foundation
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// App extensions on the device (issue 39): installed, upgraded and uninstalled with the app, each its
/// own process, identity and data container, sharing the app groups and keychain groups its entitlements hold.
@Suite("App extensions on the device")
struct ExtensionTests {
    static let shared = "TEAM123456.com.example.shared"
    static let group = "group.com.example.tiny"

    /// Build `id` of TinyApp with a notification service extension `notify` (TinyApp again).
    func build(
        _ fixture: Fixture, _ id: String, buildNumber: String = "100", extensionGroups: [String]? = nil,
        withExtension: Bool = true
    ) throws -> Build {
        let folder = try BuildFixture.write(
            in: fixture.builds, id: id, buildNumber: buildNumber, groups: [Self.group])
        if withExtension {
            try BuildFixture.addExtension(
                to: folder, name: "notify",
                accessGroups: extensionGroups ?? [Self.shared, "TEAM123456.com.example.tiny.notify"], groups: [Self.group])
        }
        return try fixture.catalog.build(id)
    }

    @Test("install puts the extension in the app's bundle with a data container of its own; the record pins it")
    func installs() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        let app = try session.install(try build(fixture, "v1"))
        let item = try #require(app.installedExtension("notify"))
        #expect(item.bundleID == "com.example.tiny.notify")
        #expect(item.kind == "notification-service")
        // Its keychain access groups, then its app groups, as iOS gives an app.
        #expect(item.identity.accessGroups == [Self.shared, "TEAM123456.com.example.tiny.notify", Self.group])
        #expect(FileManager.default.isExecutableFile(atPath: app.extensionExecutablePath(item)))
        #expect(FileManager.default.fileExists(atPath: app.extensionFolder(item) + "/build.json"))
        #expect(FileManager.default.fileExists(atPath: app.extensionFolder(item) + "/notify.entitlements"))
        #expect(session.device.dataContainer("com.example.tiny.notify") != nil)
        #expect(session.device.dataContainer("com.example.tiny") != nil)
        #expect(session.device.groupContainer(Self.group) != nil)
        // Installed apps are apps: the extension is not one of them.
        #expect(session.device.installedApps().map(\.bundleID) == ["com.example.tiny"])
    }

    @Test("a build without extensions installs the record it always did: no extensions field in install.json")
    func withoutExtensions() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        let app = try session.install(try build(fixture, "v1", withExtension: false))
        let record = try String(contentsOfFile: app.container.path + "/install.json", encoding: .utf8)
        #expect(!record.contains("extensions"))
        #expect(app.extensions.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: app.appFolder + "/PlugIns"))
    }

    @Test("the extension runs as its own process: its bundle id, its container, its keychain group")
    func launches() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        let app = try session.install(try build(fixture, "v1"))
        try session.boot(lockState: .unlocked)
        var options = LaunchOptions(arguments: ["-TinyMode", "seed"])
        options.extensionName = "notify"
        let result = try session.launch("com.example.tiny", options)
        #expect(result.exitedCleanly)
        #expect(result.bundleID == "com.example.tiny.notify")
        #expect(result.buildID == "v1")
        #expect(result.logPath.hasSuffix("/com.example.tiny.notify.log"))
        let container = try #require(session.device.dataContainer("com.example.tiny.notify"))
        let status = try String(contentsOfFile: container.path + "/Documents/tiny-status.json", encoding: .utf8)
        #expect(status.contains(#""bundleID":"com.example.tiny.notify""#))
        // Not the app's container.
        let appContainer = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(!FileManager.default.fileExists(atPath: appContainer.path + "/Documents/tiny-status.json"))
        // An item added without a group lands in the extension's first access group: the shared one.
        #expect(try session.keychainItems().map(\.accessGroup) == [Self.shared])
        _ = app
    }

    @Test("the extension's launch sees the lock state of the moment")
    func lockState() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try build(fixture, "v1"))
        try session.boot(lockState: .locked)
        var options = LaunchOptions(arguments: ["-TinyMode", "wait", "-TinyWaitSeconds", "0"])
        options.extensionName = "notify"
        #expect(try session.launch("com.example.tiny", options).exitedCleanly)
        let container = try #require(session.device.dataContainer("com.example.tiny.notify"))
        let status = try String(contentsOfFile: container.path + "/Documents/tiny-status.json", encoding: .utf8)
        #expect(status.contains(#""available":false"#))
    }

    @Test("an unknown extension name is not installed, naming its bundle id")
    func unknownExtension() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try build(fixture, "v1"))
        try session.boot(lockState: .unlocked)
        var options = LaunchOptions()
        options.extensionName = "widget"
        #expect {
            try session.launch("com.example.tiny", options)
        } throws: { error in
            "\(error)".contains("com.example.tiny.widget")
        }
    }

    @Test(
        "an upgrade keeps the extension's container (moved with the app's); a build that drops it removes it; uninstall removes it"
    )
    func upgradeAndUninstall() throws {
        let fixture = try Fixture()
        let session = try fixture.device.acquire()
        try session.install(try build(fixture, "v1"))
        let before = try #require(session.device.dataContainer("com.example.tiny.notify"))
        try Data("kept".utf8).write(to: URL(fileURLWithPath: before.path + "/Documents/marker"))
        let upgraded = try session.install(try build(fixture, "v2", buildNumber: "200"))
        #expect(upgraded.record.kind == .upgrade)
        let moved = try #require(session.device.dataContainer("com.example.tiny.notify"))
        #expect(moved.path != before.path, "an update moves it, as the app's")
        #expect(FileManager.default.fileExists(atPath: moved.path + "/Documents/marker"))
        try session.install(try build(fixture, "v3", buildNumber: "300", withExtension: false))
        #expect(session.device.dataContainer("com.example.tiny.notify") == nil)
        try session.install(try build(fixture, "v4", buildNumber: "400"))
        #expect(session.device.dataContainer("com.example.tiny.notify") != nil)
        try session.uninstall("com.example.tiny")
        #expect(session.device.dataContainer("com.example.tiny.notify") == nil)
        #expect(session.device.dataContainer("com.example.tiny") == nil)
        // App group containers stay, as on iOS.
        #expect(session.device.groupContainer(Self.group) != nil)
    }

    @Test(
        "a declared extension that cannot be used is one line naming the build, the file and the field",
        arguments: [
            (["kind": "today"], #"build v1: field "extensions[0].kind" "today" is not an extension kind"#),
            (
                ["bundleID": "com.example.other.notify"],
                #"build v1: field "extensions[0].bundleID" "com.example.other.notify" is not "com.example.tiny.notify""#
            ),
            (
                ["entitlements": "Missing.entitlements"],
                #"build v1: field "extensions[0].entitlements" names Missing.entitlements"#
            ),
            (["executable": "../TinyApp"], #"build v1: field "extensions[0].executable" must be a plain file name"#),
            (["name": "no.dots"], #"build v1: field "extensions[0].name" "no.dots" is not a bundle id component"#),
            (["entitlement": "x"], #"field "extensions[0].entitlement" is not an extension field; did you mean "entitlements"?"#),
        ] as [([String: String], String)])
    func badDeclaration(fields: [String: String], naming: String) throws {
        let fixture = try Fixture()
        let folder = try BuildFixture.write(in: fixture.builds, id: "v1")
        try BuildFixture.addExtension(to: folder, name: "notify", fields: fields)
        #expect {
            try fixture.catalog.build("v1")
        } throws: { error in
            let text = "\(error)"
            return text.contains(folder + "/build.json") && text.contains(naming) && !text.contains("\n")
        }
    }

    @Test("an extension's application-identifier must name its bundle id")
    func wrongApplicationIdentifier() throws {
        let fixture = try Fixture()
        let folder = try BuildFixture.write(in: fixture.builds, id: "v1")
        try BuildFixture.addExtension(to: folder, name: "notify")
        try BuildFixture.addExtension(to: folder, name: "widget", kind: "widget", fields: ["entitlements": "notify.entitlements"])
        #expect {
            try fixture.catalog.build("v1")
        } throws: { error in
            "\(error)".contains("does not name extension widget's bundle id com.example.tiny.widget")
        }
    }
}
