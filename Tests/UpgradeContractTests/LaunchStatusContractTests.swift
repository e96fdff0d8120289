import Foundation
import Testing
import UpgradeContract

@Suite("The status file contract")
struct LaunchStatusContractTests {
    private func status() -> LaunchStatus {
        LaunchStatus(
            build: "v2", mode: .verify, caseID: "c", runtime: "iOS 17.5", schemaVersion: 2,
            migration: MigrationOutcome(state: .upToDate), sweep: .markerPresent,
            items: [
                ItemCheck(
                    name: "apiToken", location: .keychain, operation: "SecItemCopyMatching", status: 0,
                    runtime: "iOS 17.5", result: .found)
            ])
    }

    @Test("the words are the enums' raw values, and a file round-trips byte for byte")
    func words() throws {
        let data = try status().encoded()
        let text = String(decoding: data, as: UTF8.self)
        for word in [
            "\"result\" : \"found\"", "\"location\" : \"keychain\"", "\"state\" : \"upToDate\"", "\"sweep\" : \"markerPresent\"",
        ] {
            #expect(text.contains(word), "\(word)")
        }
        #expect(try LaunchStatus.decode(data).encoded() == data)
    }

    @Test("a file of another contract version is refused before anything else is read")
    func version() throws {
        var text = String(decoding: try status().encoded(), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 7")
        text = text.replacingOccurrences(of: "\"found\"", with: "\"a word of version 7\"")
        #expect(throws: ContractError.unsupportedVersion(7, supported: 1)) { try LaunchStatus.decode(Data(text.utf8)) }
        #expect(
            ContractError.unsupportedVersion(7, supported: 1).description
                == "field \"formatVersion\" is 7, but this runner speaks contract version 1")
    }

    @Test("a result word outside the contract does not decode", arguments: ["\"result\" : \"ok\"", "\"location\" : \"cloud\""])
    func unknownWord(replacement: String) throws {
        var text = String(decoding: try status().encoded(), as: UTF8.self)
        let original = replacement.hasPrefix("\"result\"") ? "\"result\" : \"found\"" : "\"location\" : \"keychain\""
        text = text.replacingOccurrences(of: original, with: replacement)
        #expect(throws: DecodingError.self) { try LaunchStatus.decode(Data(text.utf8)) }
    }
}

@Suite("The contract's table of words and statuses")
struct WordStatusTableTests {
    @Test("success words stand only beside 0; missing and locked beside their own codes; failed never beside 0")
    func table() {
        for location in StoreLocation.allCases where location != .arguments {
            for word in [ItemResult.found, .mismatch, .written, .removed] {
                #expect(word.admits(status: 0, at: location))
                #expect(!word.admits(status: -25308, at: location), "\(word) \(location)")
            }
            #expect(ItemResult.failed.admits(status: -25291, at: location))
            #expect(!ItemResult.failed.admits(status: 0, at: location))
            #expect(ItemResult.kept.admits(status: 1, at: location) && ItemResult.kept.admits(status: 0, at: location))
        }
        #expect(ItemResult.missing.admits(status: -25300, at: .keychain))
        #expect(!ItemResult.missing.admits(status: 0, at: .keychain))
        #expect(!ItemResult.missing.admits(status: -25308, at: .keychain))
        #expect(ItemResult.locked.admits(status: -25308, at: .keychain))
        #expect(!ItemResult.locked.admits(status: -25300, at: .keychain))
        #expect(ItemResult.missing.admits(status: 0, at: .preferences) && ItemResult.missing.admits(status: 2, at: .file))
        #expect(ItemResult.locked.admits(status: 1, at: .file) && ItemResult.locked.admits(status: 13, at: .archive))
        #expect(!ItemResult.locked.admits(status: 0, at: .preferences))
        #expect(ItemResult.failed.admits(status: 22, at: .arguments) && !ItemResult.found.admits(status: 0, at: .arguments))
    }
}
