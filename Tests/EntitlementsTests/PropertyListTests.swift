import Entitlements
import Foundation
import Testing

@Suite struct PropertyListTests {
    @Test("XML and binary plists of the same entitlements read the same", arguments: ["src/ledger.plist", "ledger.bplist"])
    func xmlAndBinary(name: String) throws {
        let entries = try PropertyListReader.dictionary(from: try FixtureFiles.data(name), file: name)
        #expect(Entitlements(entries) == (try FixtureFiles.ledger()))
        #expect(entries["get-task-allow"] == .bool(false))
        #expect(entries["keychain-access-groups"]?.strings == ["Q7X2K9M4TD.com.example.ledger", "Q7X2K9M4TD.com.example.shared"])
    }

    @Test("every plist type converts to its PlistValue and survives a binary round trip")
    func types() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
            <key>b</key><true/><key>i</key><integer>7</integer><key>z</key><integer>0</integer>
            <key>r</key><real>1.5</real><key>d</key><date>2031-01-01T00:00:00Z</date><key>x</key><data>AAEC</data>
            <key>a</key><array><string>s</string><false/></array><key>n</key><dict><key>k</key><string>v</string></dict>
            </dict></plist>
            """
        let entries = try PropertyListReader.dictionary(from: Data(xml.utf8), file: "types.plist")
        #expect(entries["b"] == .bool(true))
        #expect(entries["i"] == .integer(7))
        #expect(entries["z"] == .integer(0))
        #expect(entries["r"] == .real(1.5))
        #expect(entries["d"]?.rendered == "2031-01-01T00:00:00Z")
        #expect(entries["x"] == .data(Data([0, 1, 2])))
        #expect(entries["a"] == .array([.string("s"), .bool(false)]))
        #expect(entries["n"] == .dictionary(["k": .string("v")]))
        let binary = try PropertyListReader.data(from: entries, binary: true)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        #expect(try PropertyListReader.dictionary(from: binary, file: "round-trip") == entries)
    }

    @Test(
        "a plist that is not a dictionary, or not a plist, is one line naming the file",
        arguments: [
            ("array.plist", "array.plist: property list is an array, not a dictionary")
        ])
    func notADictionary(name: String, message: String) throws {
        let error = #expect(throws: EntitlementsError.self) {
            try PropertyListReader.dictionary(from: try FixtureFiles.data(name), file: name)
        }
        #expect(error?.description == message)
    }

    @Test(
        "garbage and empty input are rejected with the file's name", arguments: ["<plist><dict><key>a</dict>", "", "\u{1}\u{2}"])
    func garbage(text: String) {
        let error = #expect(throws: EntitlementsError.self) {
            try PropertyListReader.dictionary(from: Data(text.utf8), file: "bad.plist")
        }
        #expect(error?.file == "bad.plist")
        #expect(error?.description.contains("\n") == false)
    }
}
