import Foundation
import Testing
import UpgradeContract

/// The shapes of a case's secrets: what each holds, how they reach the app, and how a build narrows them.
@Suite struct SecretShapeTests {
    static let caseID = "shape-case"

    func value(_ shape: SecretShape, _ label: String = "authToken") -> Data {
        CaseSecrets.value(caseID: Self.caseID, label: label, shape: shape)
    }

    @Test("a label without a shape is alnum: 32 letters and digits, the values every case had before shapes")
    func alnumIsTheDefault() {
        let secrets = CaseSecrets(caseID: Self.caseID)
        #expect(secrets["authToken"].count == 32)
        #expect(secrets["authToken"].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
        #expect(secrets.data("authToken") == value(.alnum))
        // Pinned: the derivation of alnum values must never change (released builds seed them).
        #expect(
            CaseSecrets(caseID: "bench")["authToken"] == CaseSecrets(caseID: "bench", shapes: ["authToken": .alnum])["authToken"])
        #expect(secrets["authToken"] != secrets["refreshToken"])
    }

    @Test("each shape holds what its name says, the same bytes for the same case, label and shape")
    func shapes() throws {
        let symbols = String(decoding: value(.asciiSymbols), as: UTF8.self)
        #expect(["+", "/", "=", "%", "&", "<", ">", "\"", "\\", "'"].allSatisfy(symbols.contains))
        #expect(value(.asciiSymbols).allSatisfy { (0x21...0x7E).contains($0) })

        let spaced = String(decoding: value(.whitespace), as: UTF8.self)
        #expect(spaced.first!.isWhitespace && spaced.last!.isNewline && spaced.contains(" ") && spaced.contains("\n"))
        #expect(spaced.trimmingCharacters(in: .whitespacesAndNewlines) != spaced)

        let composed = try #require(String(data: value(.unicodeComposed), encoding: .utf8))
        let decomposed = try #require(String(data: value(.unicodeDecomposed), encoding: .utf8))
        #expect(value(.unicodeComposed) != value(.unicodeDecomposed))
        #expect(Data(decomposed.precomposedStringWithCanonicalMapping.utf8) == value(.unicodeComposed))
        #expect(Data(composed.decomposedStringWithCanonicalMapping.utf8) == value(.unicodeDecomposed))
        #expect(composed.unicodeScalars.contains { $0.value > 0xFFFF })

        #expect(String(data: value(.bytes), encoding: .utf8) == nil)
        #expect(value(.bytes).contains(0))
        #expect(value(.empty).isEmpty)
        #expect(value(.long).count >= 4096)

        for shape in SecretShape.allCases {
            #expect(value(shape) == value(shape), "\(shape)")
            if shape != .empty { #expect(value(shape) != value(shape, "refreshToken"), "\(shape)") }
        }
        #expect(Set(SecretShape.allCases.map { value($0) }).count == SecretShape.allCases.count)
    }

    @Test("the shapes reach the app as launch arguments, one per label; alnum is left out")
    func arguments() {
        let shapes: [String: SecretShape] = ["refreshToken": .bytes, "authToken": .whitespace, "session": .alnum]
        let arguments = SecretShape.arguments(for: shapes)
        #expect(arguments == ["-UITestSecretShape", "authToken=whitespace", "-UITestSecretShape", "refreshToken=bytes"])
        let launch = ["-UITestCaseID", "c"] + arguments + ["-UITestSecretShape", "odd=unknown-shape"]
        #expect(SecretShape.shapes(in: launch) == ["authToken": .whitespace, "refreshToken": .bytes])
        let secrets = CaseSecrets(caseID: "c", arguments: launch)
        #expect(secrets.data("authToken") == CaseSecrets.value(caseID: "c", label: "authToken", shape: .whitespace))
        #expect(secrets.shape("session") == .alnum)
    }

    @Test("bytes that are not UTF-8 asked for as text: the alnum value, and the label is noted; as data: the bytes")
    func textReadOfBytes() {
        let secrets = CaseSecrets(caseID: "c", arguments: ["-UITestSecretShape", "refreshToken=bytes"])
        #expect(secrets.data("refreshToken") == CaseSecrets.value(caseID: "c", label: "refreshToken", shape: .bytes))
        #expect(secrets.textReadsOfBytes.isEmpty)
        _ = secrets["authToken"]
        #expect(secrets.textReadsOfBytes.isEmpty)
        let copy = secrets
        #expect(copy["refreshToken"] == CaseSecrets(caseID: "c")["refreshToken"])
        #expect(secrets.textReadsOfBytes == ["refreshToken"])
        // A read is judged against what was seeded: the bytes, or the alnum value a text API seeded.
        let alnum = CaseSecrets.value(caseID: "c", label: "refreshToken", shape: .alnum)
        #expect(secrets.expected("refreshToken", matching: alnum) == alnum)
        #expect(secrets.expected("refreshToken", matching: Data("x".utf8)) == secrets.data("refreshToken"))
    }

    @Test("only a keychain item or a file holds bytes that are not UTF-8; every store holds the empty value")
    func stores() {
        #expect(StoreLocation.allCases.filter(SecretShape.bytes.fits) == [.keychain, .file])
        #expect(StoreLocation.allCases.allSatisfy(SecretShape.empty.fits))
    }

    static let keychain = #"{"kind": "keychain", "service": "s", "account": "a"}"#
    static let preference = #"{"kind": "preference", "key": "k"}"#

    func problem(_ item: String, bookkeeping: Bool = false) throws -> String? {
        let json = bookkeeping ? #"{"bookkeeping": [\#(item)]}"# : #"{"secrets": [\#(item)]}"#
        let declaration = try JSONDecoder().decode(BuildDeclaration.self, from: Data(json.utf8))
        return declaration.problem().map { "\($0.field): \($0.reason)" }
    }

    @Test("a build narrows a secret's shapes with a reason")
    func narrowing() throws {
        let item = #"{"label": "t", "store": \#(Self.keychain), "shapes": ["alnum", "long"], "shapesReason": "a hex token"}"#
        #expect(try problem(item) == nil)
        let declaration = try JSONDecoder().decode(BuildDeclaration.self, from: Data(#"{"secrets": [\#(item)]}"#.utf8))
        #expect(declaration.secrets[0].shapes == [.alnum, .long])
        #expect(declaration.resolved(caseID: "c").secrets[0].shapesReason == "a hex token")
    }

    @Test(
        "a bad narrowing names its field",
        arguments: [
            (#""shapes": ["alnum", "hex"], "shapesReason": "r""#, false, #"keeps.secrets[0].shapes[1]: "hex" is not one of"#),
            (#""shapes": [], "shapesReason": "r""#, false, "keeps.secrets[0].shapes: is empty"),
            (#""shapes": ["long", "long"], "shapesReason": "r""#, false, #"keeps.secrets[0].shapes[1]: "long" is named twice"#),
            (#""shapes": ["alnum"]"#, false, "keeps.secrets[0].shapesReason: is missing or empty"),
            (#""shapes": ["alnum"], "shapesReason": "  ""#, false, "keeps.secrets[0].shapesReason: is missing or empty"),
            (#""shapesReason": "r""#, false, #"keeps.secrets[0].shapesReason: is given without "shapes""#),
            (
                #""shapes": ["bytes"], "shapesReason": "r""#, true,
                #"keeps.secrets[0].shapes[0]: "bytes" cannot be held by a preferences store"#
            ),
            (#""shapes": ["alnum"], "shapesReason": "r""#, nil, "keeps.bookkeeping[0].shapes: narrows a bookkeeping item"),
        ] as [(String, Bool?, String)])
    func badNarrowing(fields: String, inPreference: Bool?, expected: String) throws {
        let store = inPreference == true ? Self.preference : Self.keychain
        let item = #"{"label": "t", "store": \#(store), \#(fields)}"#
        let found = try #require(try problem(item, bookkeeping: inPreference == nil))
        #expect(found.hasPrefix(expected), "\(found)")
    }
}
