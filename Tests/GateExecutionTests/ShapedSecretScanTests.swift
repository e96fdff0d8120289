import Foundation
@testable import GateExecution
@testable import GateModel
import Testing
import UpgradeContract

/// The leak scan and the device locator on secrets of every shape: each escaped as the tools that
/// write JSON, property lists and URLs escape it.
@Suite struct ShapedSecretScanTests {
    static func secret(_ shape: SecretShape) -> Secret {
        Secret(label: "authToken", value: CaseSecrets.value(caseID: "scan", label: "authToken", shape: shape))
    }

    static let textShapes: [SecretShape] = [.asciiSymbols, .whitespace, .unicodeComposed, .unicodeDecomposed, .long]

    func text(_ shape: SecretShape) -> String { String(decoding: Self.secret(shape).value, as: UTF8.self) }

    func found(_ data: Data, _ shape: SecretShape) throws -> [SecretEncoding] {
        try SecretScanner.scan(data: data, secrets: [Self.secret(shape)]).map(\.encoding)
    }

    @Test("a text secret is found as JSONEncoder and JSONSerialization write it", arguments: textShapes)
    func json(shape: SecretShape) throws {
        let encoded = try JSONEncoder().encode(["token": text(shape)])
        #expect(try !found(encoded, shape).isEmpty)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        #expect(try !found(encoder.encode(["token": text(shape)]), shape).isEmpty)
        let serialized = try JSONSerialization.data(withJSONObject: ["token": text(shape)])
        #expect(try !found(serialized, shape).isEmpty)
    }

    @Test(
        "non-ASCII text is found escaped as \\uXXXX and as UTF-16", arguments: [SecretShape.unicodeComposed, .unicodeDecomposed])
    func asciiOnly(shape: SecretShape) throws {
        for format in ["\\u%04x", "\\u%04X"] {
            var escaped = ""
            for unit in text(shape).utf16 {
                escaped += unit < 0x80 ? String(UnicodeScalar(UInt8(unit))) : String(format: format, unit)
            }
            #expect(try found(Data("{\"t\":\"\(escaped)\"}".utf8), shape).contains(.jsonASCII), "\(format)")
        }
        let binary = try PropertyListSerialization.data(fromPropertyList: ["t": text(shape)], format: .binary, options: 0)
        #expect(try found(binary, shape).contains(.utf16))
    }

    @Test("a text secret is found in an XML and a binary property list", arguments: textShapes)
    func plist(shape: SecretShape) throws {
        for format in [PropertyListSerialization.PropertyListFormat.xml, .binary] {
            let data = try PropertyListSerialization.data(fromPropertyList: ["token": text(shape)], format: format, options: 0)
            #expect(try !found(data, shape).isEmpty, "\(format)")
        }
        let xml = try PropertyListSerialization.data(fromPropertyList: ["token": text(.asciiSymbols)], format: .xml, options: 0)
        #expect(try found(xml, .asciiSymbols).contains(.xmlEscaped))
    }

    @Test(
        "a secret is found percent-encoded, as in a URL",
        arguments: [SecretShape.asciiSymbols, .whitespace, .unicodeComposed, .bytes])
    func percent(shape: SecretShape) throws {
        // Unreserved characters stay as they are, as URL encoders leave them.
        var unreserved = CharacterSet.alphanumerics.intersection(
            CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(0x80)))
        unreserved.insert(charactersIn: "-._~")
        let url =
            String(data: Self.secret(shape).value, encoding: .utf8)?.addingPercentEncoding(withAllowedCharacters: unreserved)
            ?? String(decoding: SecretPatterns.percentEncoded([UInt8](Self.secret(shape).value)), as: UTF8.self)
        #expect(try found(Data("https://example.com/?t=\(url)&x=1".utf8), shape).contains(.percent))
    }

    @Test("an empty secret is never looked for: no error and no finding")
    func empty() throws {
        #expect(
            try SecretScanner.scan(data: Data("anything at all".utf8), secrets: [Self.secret(.empty), Self.secret(.alnum)])
                .isEmpty)
    }

    @Test("the device locator finds a text secret in the stores' forms, and places an empty one everywhere")
    func storedForms() throws {
        for shape in Self.textShapes {
            let forms = SecretPatterns.storedForms(of: Self.secret(shape).value)
            let binary = try PropertyListSerialization.data(fromPropertyList: ["t": text(shape)], format: .binary, options: 0)
            let xml = try PropertyListSerialization.data(fromPropertyList: ["t": text(shape)], format: .xml, options: 0)
            for file in [binary, xml] {
                #expect(forms.contains { file.range(of: Data($0)) != nil }, "\(shape)")
            }
        }
        #expect(SecretPatterns.storedForms(of: Data()).isEmpty)
    }

    @Test("across a gate's scenarios each label covers every shape its stores hold; bytes never in a preference")
    func rotation() {
        let allowedKeychain = ShapeRotation.allowed(locations: [.keychain], narrowed: [nil])
        #expect(allowedKeychain == SecretShape.allCases)
        let fromPreference = ShapeRotation.allowed(locations: [.preferences, .keychain], narrowed: [nil, nil])
        #expect(!fromPreference.contains(.bytes) && fromPreference.count == SecretShape.allCases.count - 1)
        #expect(ShapeRotation.allowed(locations: [.keychain], narrowed: [[.alnum, .long], nil]) == [.alnum, .long])
        for label in ["authToken", "refreshToken", "session", "deviceKey"] {
            for allowed in [allowedKeychain, fromPreference] {
                let seeded = Set(
                    Scenario.allCases.map { ShapeRotation.shape(caseID: "bench", label: label, scenario: $0, allowed: allowed) })
                #expect(seeded == Set(allowed), "\(label)")
            }
        }
        #expect(ShapeRotation.shape(caseID: "c", label: "l", scenario: .upgrade, allowed: []) == .alnum)
        // An empty value is every case's: never seeded where another case's data must be told apart.
        for caseID in ["a", "b", "c", "d", "e", "f", "g", "h"] {
            #expect(
                ShapeRotation.shape(caseID: caseID, label: "l", scenario: .staleLeftovers, allowed: [.empty, .long]) == .long)
        }
        // Deterministic: the same inputs give the same shape.
        #expect(
            ShapeRotation.shape(caseID: "c", label: "l", scenario: .upgrade, allowed: allowedKeychain)
                == ShapeRotation.shape(caseID: "c", label: "l", scenario: .upgrade, allowed: allowedKeychain))
    }

    @Test("the leak scan's secrets: the alnum values first, as before shapes, then every other non-empty shape")
    func pipelineSecrets() {
        let secrets = GatePipeline.secrets(caseID: "c", labels: ["authToken"])
        #expect(secrets.count == 3 * (SecretShape.allCases.count - 1))
        #expect(secrets[0].label == "authToken of case c")
        #expect(secrets[0].value == CaseSecrets.value(caseID: "c", label: "authToken", shape: .alnum))
        #expect(!secrets.contains { $0.value.isEmpty })
        #expect(secrets.contains { $0.label == "authToken of case c, bytes" })
    }
}
