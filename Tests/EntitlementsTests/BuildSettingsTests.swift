import Entitlements
import Foundation
import Testing
import TestSupport

/// Build settings for `.entitlements` variables: `--setting NAME=VALUE`, an `.xcconfig`, `xcodebuild
/// -showBuildSettings` output (text or JSON) and a build manifest's `settings`.
@Suite struct BuildSettingsTests {
    static let entitlements = "settings/Ledger.entitlements"

    static func show(
        settings: [String] = [], files: [String] = []
    ) throws(EntitlementsError)
        -> EntitlementsDiffCommand.Output
    {
        try EntitlementsShowCommand.run(
            input: FixtureFiles.path(entitlements), team: nil, bundleID: nil, buildsRoot: "", info: false,
            settings: settings, settingsFiles: files.map(FixtureFiles.path))
    }

    @Test(
        "every way of giving the settings expands the file to the same entitlements",
        arguments: [
            (
                [
                    "APP_BUNDLE_ID=com.example.ledger", "BASE_BUNDLE_ID=com.example", "GROUP_ID_PREFIX=group",
                    "DEVELOPMENT_TEAM=Q7X2K9M4TD",
                ], [String]()
            ),
            (["APP_BUNDLE_ID=$(BASE_BUNDLE_ID).ledger"], ["settings/Base.xcconfig"]),
            ([], ["settings/Ledger.xcconfig"]),
            ([], ["settings/show-build-settings.txt"]),
            ([], ["settings/show-build-settings.json"]),
            (["APP_BUNDLE_ID=com.example.ledger"], ["settings/show-build-settings.json"]),
        ])
    func expands(settings: [String], files: [String]) throws {
        let output = try Self.show(settings: settings, files: files)
        #expect(output.exitCode == 0, "\(output.stderr)")
        let printed = try PropertyListReader.dictionary(from: Data(output.stdout.utf8), file: "stdout")
        #expect(Entitlements(printed) == (try FixtureFiles.ledger()))
    }

    @Test("--setting wins over a settings file, and a later file over an earlier one")
    func precedence() throws {
        let overridden = try Self.show(settings: ["APP_BUNDLE_ID=com.example.other"], files: ["settings/Ledger.xcconfig"])
        #expect(overridden.stdout.contains("<string>Q7X2K9M4TD.com.example.other</string>"))
        let settings = try BuildSettings.merged(
            assignments: [], files: ["settings/show-build-settings.txt", "settings/Base.xcconfig"].map(FixtureFiles.path))
        #expect(settings["APP_BUNDLE_ID"] == "com.example.ledger")
        #expect(settings["BASE_BUNDLE_ID"] == "com.example")
    }

    @Test("an .xcconfig: includes, optional includes, $(inherited), comments, conditional lines skipped")
    func xcconfig() throws {
        let settings = try BuildSettings.read(file: FixtureFiles.path("settings/Ledger.xcconfig"))
        #expect(settings["DEVELOPMENT_TEAM"] == "Q7X2K9M4TD")
        #expect(settings["APP_BUNDLE_ID"] == "$(BASE_BUNDLE_ID).ledger")
        #expect(settings["OTHER_SWIFT_FLAGS"] == "-DLEDGER")
        #expect(settings["CODE_SIGN_IDENTITY"] == nil)
    }

    @Test("-showBuildSettings with several targets: the first target's settings")
    func firstTarget() throws {
        let settings = try BuildSettings.read(file: FixtureFiles.path("settings/show-build-settings.txt"))
        #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.ledger")
        #expect(settings["ACTION"] == "build")
    }

    @Test(
        "a variable nothing gives, a bad --setting or settings file, a loop: one line naming the file and key",
        arguments: [
            (
                [String](), [String](),
                "ENTS: key application-identifier: variable $(AppIdentifierPrefix) left unexpanded: it needs a "
                    + "team id (pass --team or --setting DEVELOPMENT_TEAM=..., or set \"team\" in the build manifest)"
            ),
            (
                ["DEVELOPMENT_TEAM=Q7X2K9M4TD"], [],
                "ENTS: key application-identifier: variable $(APP_BUNDLE_ID) left unexpanded: unknown build "
                    + "setting APP_BUNDLE_ID (give it with --setting APP_BUNDLE_ID=VALUE or --settings FILE)"
            ),
            (["APP_BUNDLE_ID"], [], "--setting APP_BUNDLE_ID: expected NAME=VALUE, with NAME letters, digits and _"),
            (
                ["DEVELOPMENT_TEAM=T", "APP_BUNDLE_ID=$(BASE_BUNDLE_ID)", "BASE_BUNDLE_ID=$(APP_BUNDLE_ID)"], [],
                "ENTS: key application-identifier: variable $(APP_BUNDLE_ID) left unexpanded: build setting "
                    + "APP_BUNDLE_ID refers to itself (APP_BUNDLE_ID -> BASE_BUNDLE_ID -> APP_BUNDLE_ID)"
            ),
            ([], ["settings/missing.xcconfig"], "FIXTURES/settings/missing.xcconfig: cannot read file"),
            ([], ["Ledger.entitlements"], "FIXTURES/Ledger.entitlements: line 1: expected NAME = value, found \"<?xml"),
        ])
    func refused(settings: [String], files: [String], message: String) {
        let error = #expect(throws: EntitlementsError.self) { try Self.show(settings: settings, files: files) }
        let expected = message.replacingOccurrences(of: "ENTS", with: FixtureFiles.path(Self.entitlements))
            .replacingOccurrences(of: "FIXTURES", with: FixtureFiles.root)
        let line = error?.description ?? ""
        #expect(line.hasPrefix(expected), "\(line)")
        #expect(!line.contains("\n"))
    }

    @Test("a build manifest's settings expand its entitlements; --setting still wins")
    func manifestSettings() throws {
        let directory = try TemporaryDirectory("settings")
        let folder = directory.file("builds/s1")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: FixtureFiles.path(Self.entitlements), toPath: folder + "/Ledger.entitlements")
        let manifest = #"""
            {"id": "s1", "bundleID": "com.example.ledger", "team": "Q7X2K9M4TD", "entitlements": "Ledger.entitlements",
             "settings": {"APP_BUNDLE_ID": "com.example.ledger", "BASE_BUNDLE_ID": "com.example", "GROUP_ID_PREFIX": "group"}}
            """#
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: folder + "/build.json"))
        let loaded = try EntitlementsLoader.load("s1", variables: XcodeVariables(), buildsRoot: directory.file("builds"))
        #expect(loaded.entitlements == (try FixtureFiles.ledger()))
        let overridden = try EntitlementsLoader.load(
            "s1", variables: XcodeVariables(settings: ["GROUP_ID_PREFIX": "group.beta"]), buildsRoot: directory.file("builds"))
        #expect(overridden.entitlements.applicationGroups == ["group.beta.com.example.ledger"])
    }
}
