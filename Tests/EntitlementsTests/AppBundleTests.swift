import Entitlements
import Foundation
import Testing
import TestSupport

@Suite struct AppBundleTests {
    @Test("a .app folder: binary Info.plist, executable's section, embedded profile that agrees")
    func fixture() throws {
        let app = try AppBundle.read(folder: FixtureFiles.path("Ledger.app"))
        #expect(app.executableName == "Ledger")
        #expect(app.bundleIdentifier == "com.example.ledger")
        #expect(app.entitlements == (try FixtureFiles.ledger()))
        #expect(app.profile?.teamIdentifiers == ["Q7X2K9M4TD"])
        #expect(app.warnings.isEmpty)
    }

    /// Writes a bundle with an XML Info.plist, a signed executable and optionally a profile.
    func makeApp(in directory: TemporaryDirectory, entitlements: String, profile: Bool) throws -> String {
        let folder = directory.file("Made.app")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let info =
            #"<?xml version="1.0"?><plist version="1.0"><dict><key>CFBundleExecutable</key><string>Made</string></dict></plist>"#
        try Data(info.utf8).write(to: URL(fileURLWithPath: folder + "/Info.plist"))
        let image = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: nil,
            signature: MachOBuilder.signature(entitlements: Array(entitlements.utf8)))
        try Data(image).write(to: URL(fileURLWithPath: folder + "/Made"))
        if profile {
            try FixtureFiles.data("embedded.mobileprovision").write(
                to: URL(fileURLWithPath: folder + "/embedded.mobileprovision"))
        }
        return folder
    }

    @Test("an executable that asks for more than its profile allows is a warning per entitlement")
    func disagreement() throws {
        let directory = try TemporaryDirectory("app")
        let entitlements = """
            <plist version="1.0"><dict><key>application-identifier</key><string>OTHERTEAM1.com.example.ledger</string>
            <key>get-task-allow</key><true/><key>keychain-access-groups</key><array><string>Q7X2K9M4TD.ok</string>
            <string>OTHERTEAM1.nope</string></array></dict></plist>
            """
        let folder = try makeApp(in: directory, entitlements: entitlements, profile: true)
        let app = try AppBundle.read(folder: folder)
        let prefix = "\(folder)/Made disagrees with \(folder)/embedded.mobileprovision: "
        #expect(
            app.warnings == [
                prefix
                    + "application-identifier \"OTHERTEAM1.com.example.ledger\" is not allowed by the profile's \"Q7X2K9M4TD.com.example.ledger\"",
                prefix + "get-task-allow is true but the profile says false",
                prefix
                    + "keychain-access-groups element \"OTHERTEAM1.nope\" is not allowed by the profile's [\"Q7X2K9M4TD.*\", \"com.apple.token\"]",
                prefix + "team OTHERTEAM1 is not the profile's TeamIdentifier Q7X2K9M4TD",
            ])
        let loaded = try EntitlementsLoader.load(folder, variables: XcodeVariables(), buildsRoot: "/nonexistent")
        #expect(loaded.kind == .appBundle)
        #expect(loaded.warnings.count == 4)
    }

    @Test("a bundle without a profile reads from the executable alone")
    func noProfile() throws {
        let directory = try TemporaryDirectory("app")
        let folder = try makeApp(in: directory, entitlements: #"<plist version="1.0"><dict/></plist>"#, profile: false)
        let app = try AppBundle.read(folder: folder)
        #expect(app.profile == nil)
        #expect(app.origin == "arm64 code signature")
    }

    @Test(
        "a bundle that cannot be read says which file and why",
        arguments: [
            ("no-info", "no Info.plist: not an app bundle"),
            ("no-executable-key", "CFBundleExecutable is missing or not a string"),
            ("path-executable", "CFBundleExecutable \"../x\" is not a file name"),
            ("missing-executable", "cannot read the executable that CFBundleExecutable names"),
        ])
    func broken(kind: String, problem: String) throws {
        let directory = try TemporaryDirectory("app")
        let folder = directory.file("Broken.app")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let executable: String? =
            switch kind {
            case "no-executable-key": nil
            case "path-executable": "../x"
            default: "Gone"
            }
        if kind != "no-info" {
            let entry = executable.map { "<key>CFBundleExecutable</key><string>\($0)</string>" } ?? ""
            try Data(#"<plist version="1.0"><dict>\#(entry)</dict></plist>"#.utf8).write(
                to: URL(fileURLWithPath: folder + "/Info.plist"))
        }
        let error = #expect(throws: EntitlementsError.self) { try AppBundle.read(folder: folder) }
        #expect(error?.problem == problem)
    }
}

/// macOS bundles: `com.apple.security.*` keys (the App Sandbox and its capabilities) need no profile grant there,
/// while an iOS bundle's are still checked against its profile.
@Suite struct MacBundleTests {
    static let sandboxed = """
        <plist version="1.0"><dict><key>com.apple.application-identifier</key><string>Q7X2K9M4TD.com.example.ledger</string>
        <key>com.apple.security.app-sandbox</key><true/><key>com.apple.security.network.client</key><true/>
        <key>com.apple.security.files.user-selected.read-only</key><true/></dict></plist>
        """

    /// A bundle in the macOS (`Contents/`) or iOS layout whose executable is signed with `sandboxed`.
    static func makeBundle(in directory: TemporaryDirectory, macOS: Bool) throws -> String {
        let folder = directory.file("Made.app")
        let root = macOS ? folder + "/Contents" : folder
        try FileManager.default.createDirectory(atPath: root + (macOS ? "/MacOS" : ""), withIntermediateDirectories: true)
        let info = #"<plist version="1.0"><dict><key>CFBundleExecutable</key><string>Made</string></dict></plist>"#
        try Data(info.utf8).write(to: URL(fileURLWithPath: root + "/Info.plist"))
        let image = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: nil, signature: MachOBuilder.signature(entitlements: Array(sandboxed.utf8)))
        try Data(image).write(to: URL(fileURLWithPath: root + (macOS ? "/MacOS/Made" : "/Made")))
        try FixtureFiles.data("embedded.mobileprovision").write(
            to: URL(fileURLWithPath: root + (macOS ? "/embedded.provisionprofile" : "/embedded.mobileprovision")))
        return folder
    }

    @Test("a macOS app's sandbox keys are not 'not in the profile'; an iOS app's are", arguments: [true, false])
    func sandboxKeys(macOS: Bool) throws {
        let directory = try TemporaryDirectory("mac")
        let app = try AppBundle.read(folder: try Self.makeBundle(in: directory, macOS: macOS))
        let notInProfile = app.warnings.filter { $0.contains("com.apple.security.") && $0.hasSuffix("is not in the profile") }
        #expect(notInProfile.count == (macOS ? 0 : 3), "\(app.warnings)")
    }
}
