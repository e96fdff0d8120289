import Entitlements
import Foundation
import Testing

@Suite struct CodesignOutputTests {
    @Test(
        "codesign's outputs read as the entitlements they print",
        arguments: [
            "codesign-colon.txt",  // `--entitlements :-` with Executable= and the deprecation warning
            "codesign-xml.txt",  // `--entitlements - --xml`: one line of XML
            "codesign-text.txt",  // `--entitlements -`: the [Dict] text form, tab-indented
            "ledger.bplist",  // a binary plist passed through
        ])
    func reads(name: String) throws {
        let entries = try CodesignOutput.read(try FixtureFiles.data(name), file: name)
        #expect(Entitlements(entries) == (try FixtureFiles.ledger()))
    }

    @Test("older codesign's raw blob header (0xfade7171 and a length) before the XML is skipped")
    func blobHeader() throws {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        let blob = MachOBuilder.blob(magic: 0xfade_7171, xml)
        #expect(Entitlements(try CodesignOutput.read(Data(blob), file: "blob")) == (try FixtureFiles.ledger()))
    }

    @Test("the [Dict] form nests dictionaries and arrays by indentation, with spaces too")
    func nested() throws {
        let entries = try CodesignOutput.read(try FixtureFiles.data("codesign-text-nested.txt"), file: "nested")
        #expect(entries["get-task-allow"] == .bool(true))
        #expect(entries["keychain-access-groups"] == .array([.string("Q7X2K9M4TD.com.example.ledger")]))
        #expect(
            entries["com.example.nested"]
                == .dictionary([
                    "count": .integer(3),
                    "list": .array([.dictionary(["on": .bool(true)]), .string("tail")]),
                ]))
        #expect(entries.count == 5)
    }

    @Test("an empty [Dict] and empty containers inside it read as empty")
    func empties() throws {
        let text = "[Dict]\n\t[Key] a\n\t[Value]\n\t\t[Array]\n\t[Key] d\n\t[Value]\n\t\t[Dict]\n"
        let entries = try CodesignOutput.read(Data(text.utf8), file: "empty")
        #expect(entries == ["a": .array([]), "d": .dictionary([:])])
        #expect(try CodesignOutput.read(Data("[Dict]\n".utf8), file: "e") == [:])
    }

    @Test(
        "malformed codesign output is one line naming the file and the line",
        arguments: [
            ("[Dict]\n\t[Key] a\n", "out.txt: line 2: [Key] a is not followed by [Value]"),
            ("[Dict]\n\t[Key] a\n\t[Value]\n", "out.txt: line 3: a [Value] has no value below it"),
            ("[Dict]\n\t[Key] a\n\t[Value]\n\t\t[Bool] maybe\n", "out.txt: line 4: [Bool] maybe is neither true nor false"),
            ("[Dict]\n\t[Key] a\n\t[Value]\n\t\t[Widget] x\n", "out.txt: line 4: unknown tag [Widget]"),
            ("[Dict]\n\t[String] a\n", "out.txt: line 2: expected [Key] in a [Dict], found [String]"),
            ("[Array]\n\t[String] a\n", "out.txt: codesign text form does not start with [Dict]"),
            ("[Dict]\n\tstray text\n", "out.txt: line 2: expected a [Tag] such as [Key] or [String], found \"stray text\""),
            ("Executable=/x/App\n", "out.txt: no entitlements in codesign output (only an Executable= line or warnings)"),
            (
                "codesign: no such file\n<plist/>",
                "out.txt: line 1: expected a property list or codesign's [Dict] form, found \"codesign: no such file\""
            ),
            (
                "Executable=/x/App\n<?xml version=\"1.0\"?><plist version=\"1.0\"><string>x</string></plist>",
                "out.txt: property list is a string, not a dictionary"
            ),
        ])
    func malformed(text: String, message: String) {
        let error = #expect(throws: EntitlementsError.self) { try CodesignOutput.read(Data(text.utf8), file: "out.txt") }
        #expect(error?.description == message)
    }
}
