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
