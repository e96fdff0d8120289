import Foundation
import Testing

@testable import UpgradeContract

/// The installed build.json's `keeps` read without `JSONDecoder`
/// (``BuildManifest/installedDeclaration(_:)``) against `JSONDecoder`'s answer: over every
/// build.json in the repository and variants of them with each field removed, null or of
/// another type, and odd texts.
@Suite struct InstalledDeclarationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every build.json under builds/ (mutants included) and Examples/.
    static func manifests() throws -> [(path: String, data: Data)] {
        var found: [(String, Data)] = []
        for top in ["builds", "Examples"] {
            let base = root.appendingPathComponent(top).path
            guard let walker = FileManager.default.enumerator(atPath: base) else { continue }
            while let relative = walker.nextObject() as? String {
                guard (relative as NSString).lastPathComponent == BuildManifest.fileName,
                    !relative.contains(".build/")
                else { continue }
                let path = base + "/" + relative
                found.append((path, try #require(FileManager.default.contents(atPath: path))))
            }
        }
        return found.sorted { $0.0 < $1.0 }
    }

    static func decoded(_ data: Data) -> BuildDeclaration? {
        (try? JSONDecoder().decode(BuildManifest.self, from: data))?.keeps
    }

    /// The answer is JSONDecoder's, and the fast reader, when it answers, answers the same.
    static func expectSame(_ data: Data, _ note: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = decoded(data)
        #expect(BuildManifest.installedDeclaration(data) == expected, "\(note())", sourceLocation: sourceLocation)
        if let fast = InstalledDeclarationReader.read(data) {
            #expect(fast == expected, "fast: \(note())", sourceLocation: sourceLocation)
        }
    }

    @Test("every build.json of the repository: the fast reader takes it (but policies and extensions) and agrees")
    func repositoryManifests() throws {
        let manifests = try Self.manifests()
        #expect(manifests.count > 50)
        var declaring = 0
        for (path, data) in manifests {
            let expected = Self.decoded(data)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let leftToDecoder = object["policies"] != nil || object["extensions"] != nil
            let fast = InstalledDeclarationReader.read(data)
            #expect((fast == nil) == leftToDecoder, "\(path)")
            if let fast { #expect(fast == expected, "\(path)") }
            #expect(BuildManifest.installedDeclaration(data) == expected, "\(path)")
            if expected != nil { declaring += 1 }
        }
        #expect(declaring > 20)
    }

    /// The JSON values a field is replaced with.
    static var replacements: [Any] { [NSNull(), 1, -0.0, 1.5, "x", "", true, [Any](), [String: Any](), ["x"], [1]] }

    /// Variants of a parsed document: at every depth, each key removed and each value replaced.
    static func variants(_ value: Any) -> [Any] {
        var result: [Any] = []
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                var removed = object
                removed[key] = nil
                result.append(removed)
                for replacement in replacements {
                    var changed = object
                    changed[key] = replacement
                    result.append(changed)
                }
                for inner in variants(object[key]!) {
                    var changed = object
                    changed[key] = inner
                    result.append(changed)
                }
            }
        } else if let array = value as? [Any] {
            for index in array.indices {
                for replacement in replacements.prefix(5) {
                    var changed = array
                    changed[index] = replacement
                    result.append(changed)
                }
                for inner in variants(array[index]) {
                    var changed = array
                    changed[index] = inner
                    result.append(changed)
                }
            }
        }
        return result
    }

    @Test("each field of a declaring build.json removed, null or of another type, at every depth")
    func fieldVariants() throws {
        // The manifests whose declarations use the most kinds of store and field.
        let chosen = try Self.manifests().filter { _, data in
            let text = String(decoding: data, as: UTF8.self)
            return [
                "\"keychain\"", "\"plist\"", "\"json\"", "\"archive\"", "\"appGroupFile\"", "\"preference\"", "shapes",
                "reportedAs",
            ]
            .contains { text.contains($0) } && text.count < 6000
        }.prefix(12)
        #expect(chosen.count >= 6)
        var variantCount = 0
        for (path, data) in chosen {
            let document = try JSONSerialization.jsonObject(with: data)
            for variant in Self.variants(document) {
                let text = try JSONSerialization.data(withJSONObject: variant, options: [.sortedKeys])
                Self.expectSame(text, "\(path): \(String(decoding: text, as: UTF8.self))")
                variantCount += 1
            }
        }
        #expect(variantCount > 1000)
    }

    static let small = #"""
        {"id": "v1", "bundleID": "com.example.app", "marketingVersion": "1.0", "buildNumber": "100",
         "executable": "App", "schemaVersion": SCHEMA, "entitlements": "App.entitlements",
         "keeps": {"secrets": [{"label": "LABEL", "store": {"kind": "keychain", "service": "s", "account": "a", "port": PORT}}]}}
        """#

    static func small(schema: String = "1", label: String = "t", port: String = "443") -> String {
        small.replacingOccurrences(of: "SCHEMA", with: schema).replacingOccurrences(of: "LABEL", with: label)
            .replacingOccurrences(of: "PORT", with: port)
    }

    @Test(
        "odd texts: numbers, escapes, duplicates, a byte-order mark, bytes that are not UTF-8, cut short",
        arguments: [
            small(), small(schema: "2.0"), small(schema: "2e0"), small(schema: "-0"), small(schema: "1E2"),
            small(schema: "99999999999999999999"), small(schema: "-9223372036854775808"), small(schema: "01"),
            small(port: "4.43e2"), small(port: "null"), small(port: "\"443\""),
            small(label: #"a\u00e9\ud83d\ude00\/b\"\\\n"#), small(label: #"\ud800"#), small(label: #"\udc00x"#),
            small(label: "tab\there"), small(label: "\u{1F600}"), small(label: #"\u0000"#),
            small().replacingOccurrences(of: #""id": "v1","#, with: #""id": "v1", "id": "v2","#),
            "\u{FEFF}" + small(), small() + " \n\t", small() + "x", String(small().dropLast()), "", " ", "null", "[]",
            "{}", small().replacingOccurrences(of: "\"keeps\"", with: "\"policies\": {}, \"keeps\""),
            small().replacingOccurrences(of: "\"keeps\"", with: "\"extensions\": null, \"keeps\""),
            small().replacingOccurrences(
                of: "\"keeps\"",
                with: "\"unknown\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]], \"keeps\""),
            small().replacingOccurrences(of: "\"keeps\"", with: "\"unknown\": 1e999, \"keeps\""),
            small().replacingOccurrences(of: "\"keeps\"", with: "\"unknown\": -, \"keeps\""),
            small().replacingOccurrences(of: "}}]}}", with: "}},]}}"),
            small().replacingOccurrences(of: "\"keychain\"", with: "\"Keychain\""),
        ])
    func oddTexts(_ text: String) {
        Self.expectSame(Data(text.utf8), text)
    }

    @Test("bytes that are not UTF-8 in a string go to JSONDecoder")
    func notUTF8() {
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]] {
            var data = Data(Self.small(label: "LABEL").utf8)
            let range = data.range(of: Data("LABEL".utf8))!
            data.replaceSubrange(range, with: bad)
            #expect(InstalledDeclarationReader.read(data) == nil)
            Self.expectSame(data, "\(bad)")
        }
    }
}

/// `$(CASE_ID)` replaced without Foundation (``DeclaredStore/replacingCaseID(in:with:)``) against
/// Foundation's `replacingOccurrences`.
@Suite struct CaseIDReplacementTests {
    @Test("the same text as replacingOccurrences: ASCII, non-ASCII, placeholders cut short, next to each other, none")
    func sameAsFoundation() {
        let texts = [
            "", "$", "$(", "$(CASE_ID", "$(CASE_ID)", "$(CASE_ID)$(CASE_ID)", "a$(CASE_ID)b", "$$(CASE_ID))",
            "com.example.$(CASE_ID).token", "no placeholder", "$(case_id)", "$(CASE_ID)\u{301}", "\u{E9}$(CASE_ID)",
            "e\u{301}$(CASE_ID)", "\u{1F600}", "caf\u{E9}", "$(CASE_ID)/\u{1F600}/$(CASE_ID)", "\u{FF04}(CASE_ID)",
        ]
        for text in texts {
            for caseID in ["c1", "", "$(CASE_ID)", "\u{E9}", "a/b \"q\""] {
                #expect(
                    DeclaredStore.replacingCaseID(in: text, with: caseID)
                        == text.replacingOccurrences(of: "$(CASE_ID)", with: caseID), "\(text) \(caseID)")
            }
        }
    }
}
