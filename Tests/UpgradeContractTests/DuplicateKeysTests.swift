import Foundation
import Testing
import UpgradeContract

/// A JSON object that holds a key twice means two things (Foundation reads the first, jq and Python
/// the last): ``DuplicateKeys`` finds it, with its field path, however it is spelt (#37).
@Suite struct DuplicateKeysTests {
    @Test(
        "the first duplicated key, as a field path",
        arguments: [
            (#"{"a": 1, "a": 2}"#, "a"),
            (#"{"keeps": {"secrets": [{"label": "x"}, {"label": "y", "label": "z"}]}}"#, "keeps.secrets[1].label"),
            (#"{"a": 1, "\u0061": 2}"#, "a"),
            (#"{"s": "a \"quoted\" , : { [ text", "n": [1, 2.5e3, true, null, {"k": 1}], "n": 0}"#, "n"),
            (#"[[{"x": 1}], {"y": {"z": 1, "z": 1}}]"#, "[1].y.z"),
        ])
    func found(_ json: String, _ key: String) {
        #expect(DuplicateKeys.first(in: Data(json.utf8)) == key, "\(json)")
    }

    @Test(
        "no duplicate: the same key in sibling objects, a key equal to a value, empty containers",
        arguments: [
            #"{"a": {"b": 1}, "c": {"b": 2}}"#,
            #"{"a": "a", "b": ["a", "a"]}"#,
            #"{"a": {}, "b": [], "c": [{}, {}]}"#,
            #"{"a\"": 1, "a": 2}"#,
            "",
        ])
    func none(_ json: String) {
        #expect(DuplicateKeys.first(in: Data(json.utf8)) == nil, "\(json)")
    }

    @Test("deep nesting costs no stack")
    func deep() {
        let json = String(repeating: "[", count: 100_000) + #"{"a":1,"a":2}"# + String(repeating: "]", count: 100_000)
        #expect(DuplicateKeys.first(in: Data(json.utf8)) == String(repeating: "[0]", count: 100_000) + ".a")
    }
}
