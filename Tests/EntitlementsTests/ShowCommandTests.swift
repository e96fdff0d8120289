import Entitlements
import Foundation
import Testing

/// `entitlements show`: every input kind prints as an XML property list that reads back as the same
/// entitlements; `--info` prints an app's identity keys; bad input is one line and exit 2.
@Suite struct ShowCommandTests {
    static func show(_ input: String, info: Bool = false) throws(EntitlementsError) -> EntitlementsDiffCommand.Output {
        try EntitlementsShowCommand.run(
            input: input, team: "Q7X2K9M4TD", bundleID: "com.example.ledger",
            buildsRoot: FixtureFiles.buildsRoot, info: info)
    }

    @Test(
        "the XML printed reads back as the entitlements the loader read",
        arguments: [
            "Ledger.app", "ledger.bplist", "codesign-xml.txt", "codesign-text.txt", "embedded.mobileprovision",
            "ledger-arm64.o", "Ledger.entitlements", "v3",
        ])
    func roundTrip(name: String) throws {
        let input = name.hasPrefix("v") ? name : FixtureFiles.path(name)
        let output = try Self.show(input)
        #expect(output.exitCode == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"))
        let printed = try PropertyListReader.dictionary(from: Data(output.stdout.utf8), file: "stdout")
        let loaded = try EntitlementsLoader.load(
            input, variables: XcodeVariables(team: "Q7X2K9M4TD", bundleID: "com.example.ledger"),
            buildsRoot: FixtureFiles.buildsRoot)
        #expect(printed == loaded.entitlements.values)
        #expect(!printed.isEmpty)
    }

    @Test("--info prints the fixture app's Info.plist keys (a binary plist), a missing one empty")
    func info() throws {
        let output = try Self.show(FixtureFiles.path("Ledger.app"), info: true)
        #expect(output.exitCode == 0)
        #expect(
            output.stdout == """
                CFBundleIdentifier=com.example.ledger
                CFBundleShortVersionString=3.0
                CFBundleVersion=
                CFBundleExecutable=Ledger

                """)
    }

    @Test(
        "bad input: thrown as one line naming it (the command line exits 2)",
        arguments: [
            ("nope", false, "nope: no such file"),
            ("array.plist", false, "Fixtures/array.plist: property list is an array, not a dictionary"),
            ("builds", true, "Fixtures/builds: no Info.plist: not an app bundle"),
        ])
    func badInput(name: String, info: Bool, prefix: String) {
        let input = name == "nope" ? name : FixtureFiles.path(name)
        let error = #expect(throws: EntitlementsError.self) { try Self.show(input, info: info) }
        let line = error?.description.replacingOccurrences(of: FixtureFiles.root, with: "Fixtures") ?? ""
        #expect(line.hasPrefix(prefix), "\(line)")
        #expect(!line.contains("\n"))
    }
}
