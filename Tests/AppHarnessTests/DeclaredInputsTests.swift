import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
@testable import AppHarness

/// What the runner writes on a build's behalf is what the build's own code could have written
/// (issue 36 item 5): text as UTF-8 unless the build declares it holds bytes, malformed data in the
/// store's own format (a JSON file stays JSON), and key paths in JSON files and app groups' files.
@Suite("Declared stores: inputs a device can hold")
struct DeclaredInputsTests {
    static let group = "group.com.example.harness"

    struct PlainBuild: AppBuild {
        let buildID = "plain"
        func launch(_ launch: HarnessLaunch) async {}
    }

    private func run(
        _ app: InProcessApp, _ mode: LaunchMode, _ declaration: BuildDeclaration, arguments: [String] = []
    ) async -> LaunchStatus {
        let platform = app.platform([mode.argument!, LaunchMode.caseIDArgument, "c9"] + arguments)
        let launch = HarnessLaunch(
            buildID: "plain", mode: mode, caseID: "c9", environment: AppEnvironment(platform: platform), declaration: declaration)
        await Keychain.withCurrent(platform.keychain) { await PlainBuild().run(launch) }
        return launch.currentStatus
    }

    private func keychainData(_ app: InProcessApp, service: String, account: String) async -> Data? {
        let platform = app.platform([])
        return await Keychain.withCurrent(platform.keychain) {
            var found: CFTypeRef?
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: service, kSecAttrAccount: account, kSecReturnData: true,
            ]
            return SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess ? found as? Data : nil
        }
    }

    static func token(holdsBytes: Bool) -> BuildDeclaration {
        BuildDeclaration(secrets: [
            DeclaredItem(
                label: "token", store: .keychain(KeychainItemDeclaration(service: "com.example.tokens", account: "token")),
                holdsBytes: holdsBytes)
        ])
    }

    @Test(
        "a keychain secret the build writes as text is seeded as UTF-8 in the bytes shape (noted); declared holdsBytes, as bytes")
    func textUnlessBytesDeclared() async throws {
        let shape = ["-UITestSecretShape", "token=bytes"]
        let secrets = CaseSecrets(caseID: "c9", shapes: ["token": .bytes])
        let text = try InProcessApp()
        let seeded = await run(text, .seed, Self.token(holdsBytes: false), arguments: shape)
        #expect(seeded.items.map(\.result) == [.written])
        let stored = try #require(await keychainData(text, service: "com.example.tokens", account: "token"))
        #expect(String(data: stored, encoding: .utf8) != nil, "a text secret was stored as bytes that are not UTF-8")
        #expect(stored == CaseSecrets.value(caseID: "c9", label: "token", shape: .alnum))
        #expect(seeded.textReadsOfBytes == ["token"], "the skipped shape is noted")
        let bytes = try InProcessApp()
        _ = await run(bytes, .seed, Self.token(holdsBytes: true), arguments: shape)
        #expect(await keychainData(bytes, service: "com.example.tokens", account: "token") == secrets.data("token"))
    }

    @Test(
        "a malformed keychain seed of a text secret is UTF-8 that is not the value; of a bytes secret, bytes that are not UTF-8")
    func malformedKeychain() async throws {
        let text = try InProcessApp()
        _ = await run(text, .seedMalformed, Self.token(holdsBytes: false))
        let torn = try #require(await keychainData(text, service: "com.example.tokens", account: "token"))
        #expect(String(data: torn, encoding: .utf8) != nil && torn != CaseSecrets(caseID: "c9").data("token"))
        let bytes = try InProcessApp()
        _ = await run(bytes, .seedMalformed, Self.token(holdsBytes: true))
        let garbage = try #require(await keychainData(bytes, service: "com.example.tokens", account: "token"))
        #expect(String(data: garbage, encoding: .utf8) == nil)
    }

    static let keyPaths = BuildDeclaration(secrets: [
        DeclaredItem(
            label: "token", store: .json(file: "Library/Application Support/session.json", keyPath: "auth.token", group: nil)),
        DeclaredItem(label: "pin", store: .groupPropertyList(group: group, file: "shared.plist", keyPath: "lock.pin")),
        DeclaredItem(label: "share", store: .json(file: "share.json", keyPath: "share.key", group: group)),
    ])

    @Test("a JSON file and an app group's plist and JSON hold each secret at its key path: seeded, found, removed")
    func keyPaths() async throws {
        let app = try InProcessApp(groups: [Self.group])
        let secrets = CaseSecrets(caseID: "c9")
        let seeded = await run(app, .seed, Self.keyPaths)
        #expect(seeded.items.map(\.result) == [.written, .written, .written], "\(seeded.items)")
        #expect(seeded.items.map(\.location) == [.json, .plist, .json])
        let session = try Data(
            contentsOf: URL(fileURLWithPath: app.directory.file("data/Library/Application Support/session.json")))
        let root = try #require(try JSONSerialization.jsonObject(with: session) as? [String: Any])
        #expect((root["auth"] as? [String: Any])?["token"] as? String == secrets["token"])
        let plist = try Data(contentsOf: URL(fileURLWithPath: app.directory.file("groups/\(Self.group)/shared.plist")))
        let shared = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
        #expect((shared["lock"] as? [String: Any])?["pin"] as? String == secrets["pin"])
        let share = try Data(contentsOf: URL(fileURLWithPath: app.directory.file("groups/\(Self.group)/share.json")))
        let shareRoot = try #require(try JSONSerialization.jsonObject(with: share) as? [String: Any])
        #expect((shareRoot["share"] as? [String: Any])?["key"] as? String == secrets["share"])
        #expect(await run(app, .verify, Self.keyPaths).items.map(\.result) == [.found, .found, .found])
        #expect(await run(app, .cleanup, Self.keyPaths).items.map(\.result) == [.removed, .removed, .removed])
        #expect(await run(app, .verify, Self.keyPaths).items.map(\.result) == [.missing, .missing, .missing])
    }

    @Test("a malformed JSON seed is a torn JSON document (no decoder reads it, no property list), the value nowhere in it")
    func malformedJSON() async throws {
        let app = try InProcessApp(groups: [Self.group])
        let seeded = await run(app, .seedMalformed, Self.keyPaths, arguments: ["-UITestSeedMalformedStore", "token"])
        #expect(seeded.items.allSatisfy { $0.result == .written }, "\(seeded.items)")
        let data = try Data(contentsOf: URL(fileURLWithPath: app.directory.file("data/Library/Application Support/session.json")))
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.hasPrefix("{\"auth\":{\"token\":\""), "\(text)")
        #expect((try? JSONSerialization.jsonObject(with: data)) == nil)
        #expect((try? PropertyListSerialization.propertyList(from: data, format: nil)) == nil)
        #expect(!text.contains(CaseSecrets(caseID: "c9")["token"]))
        let verified = await run(app, .verify, Self.keyPaths)
        #expect(verified.items.map(\.result) == [.failed, .found, .found], "\(verified.items)")
    }

    @Test("holdsBytes is decoded and encoded only when true; a JSON and an app-group plist store round-trip")
    func coding() throws {
        let json = #"""
            {"secrets": [{"label": "t", "store": {"kind": "keychain", "service": "s", "account": "a"}, "holdsBytes": true},
              {"label": "p", "store": {"kind": "plist", "group": "group.x", "file": "f.plist", "keyPath": "a.b"}},
              {"label": "j", "store": {"kind": "json", "file": "f.json", "keyPath": "a"}}]}
            """#
        let declaration = try JSONDecoder().decode(BuildDeclaration.self, from: Data(json.utf8))
        #expect(declaration.secrets.map(\.holdsBytes) == [true, false, false])
        #expect(declaration.secrets[1].store == .groupPropertyList(group: "group.x", file: "f.plist", keyPath: "a.b"))
        #expect(declaration.secrets[2].store == .json(file: "f.json", keyPath: "a", group: nil))
        let again = try JSONDecoder().decode(BuildDeclaration.self, from: JSONEncoder().encode(declaration))
        #expect(again == declaration)
        let plain = String(decoding: try JSONEncoder().encode(declaration.secrets[2]), as: UTF8.self)
        #expect(!plain.contains("holdsBytes"))
    }
}
