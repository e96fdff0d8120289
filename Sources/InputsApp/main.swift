// InputsApp: small app builds written as iOS developers write them, for the tests of the inputs the
// runner writes on a build's behalf (issue 36 item 5). The release is the installed build's
// `CFBundleShortVersionString`; every release seeds through the default hooks (DeclaredStores).
// - 2.0 and 3.0 (`com.example.tokens`) keep a token in the keychain as `Data(token.utf8)` and read it
//   back with `String(data:encoding: .utf8)`; 3.0's launch re-saves it so. A text secret: the runner
//   must never seed it as bytes that are not UTF-8 on 2.0's behalf.
// - 4.0, 5.0 and 5.1 (`com.example.session`) keep a Codable session in `Library/Application
//   Support/session.json` (the token at `auth.token`), a PIN at `lock.pin` in a property list of
//   their app group, and a share key at `share.key` in a JSON file of the group. 5.0's launch
//   decodes the session and writes it back with its version; a store it cannot decode it reports and
//   leaves as it is. 5.1 is the known-bad build: it writes its new session type, which has no `auth`, so
//   the token is lost (reads-old-data).
import AppHarness
import Foundation
#if os(Linux)
    import SimPlatform  // FileManager.containerURL(forSecurityApplicationGroupIdentifier:)
#endif
#if canImport(Security)
    import Security
#else
    import SimSecurity
#endif

struct InputsBuild: AppBuild {
    let release: String
    var buildID: String {
        ["2.0": "tokens2", "3.0": "tokens3", "4.0": "session4", "5.0": "session5", "5.1": "session5-drops"][release] ?? "inputs"
    }

    static let group = "group.com.example.session"
    static var tokenQuery: [CFString: Any] {
        [kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.tokens", kSecAttrAccount: "token"]
    }
    let files = FileManager.default
    var sessionURL: URL {
        files.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0].appendingPathComponent("session.json")
    }
    var groupURL: URL? { files.containerURL(forSecurityApplicationGroupIdentifier: Self.group) }

    struct Session: Codable {
        struct Auth: Codable { var token: String }
        var auth: Auth
        var version: Int?
    }
    /// 5.1's session: the signed-in user only; the token was to move elsewhere, and never did.
    struct SessionWithoutAuth: Codable {
        var user: String?
        var version: Int
    }
    struct Shared: Codable {
        struct Share: Codable { var key: String }
        var share: Share
    }

    func launch(_ launch: HarnessLaunch) async {
        switch release {
        case "3.0":
            guard let token = readToken() else { return launch.setMigration(MigrationOutcome(state: .upToDate)) }
            let status = SecItemUpdate(Self.tokenQuery as CFDictionary, [kSecValueData: Data(token.utf8)] as CFDictionary)
            launch.record("token", .keychain, "SecItemUpdate", status, status == errSecSuccess ? .written : .failed)
            launch.setMigration(MigrationOutcome(state: status == errSecSuccess ? .migrated : .failed))
        case "5.0", "5.1":
            // A store that is there but does not decode is reported and left as it is.
            if let url = groupURL?.appendingPathComponent("shared.plist"), let data = try? Data(contentsOf: url),
                ((try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])?["lock"]
                    as? [String: Any])?["pin"]
                    as? String == nil
            {
                launch.recordError("pin", .plist, "PropertyListSerialization", EILSEQ)
            }
            if let url = groupURL?.appendingPathComponent("share.json"), let data = try? Data(contentsOf: url),
                (try? JSONDecoder().decode(Shared.self, from: data)) == nil
            {
                launch.recordError("share", .json, "JSONDecoder", EILSEQ)
            }
            guard let data = try? Data(contentsOf: sessionURL) else {
                return launch.setMigration(MigrationOutcome(state: .upToDate))
            }
            guard var session = try? JSONDecoder().decode(Session.self, from: data) else {
                launch.recordError("token", .json, "JSONDecoder", EILSEQ)
                return launch.setMigration(MigrationOutcome(state: .failed))
            }
            session.version = 5
            let encoded =
                release == "5.0"
                ? try? JSONEncoder().encode(session) : try? JSONEncoder().encode(SessionWithoutAuth(user: nil, version: 5))
            guard let encoded, (try? encoded.write(to: sessionURL, options: .atomic)) != nil else {
                launch.recordError("token", .json, "write", EIO)
                return launch.setMigration(MigrationOutcome(state: .failed))
            }
            launch.record("token", .json, "write", 0, .written)
            launch.setMigration(MigrationOutcome(state: .migrated))
        default: break
        }
    }

    func readToken() -> String? {
        var found: CFTypeRef?
        let query = Self.tokenQuery.merging([kSecReturnData: true]) { $1 }
        guard SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess, let data = found as? Data else { return nil }
        return String(data: data, encoding: .utf8)
    }

    func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
        switch release {
        case "2.0", "3.0":
            return [SecretRead("token", from: .keychain, operation: "SecItemCopyMatching", text: readToken())]
        default:
            let session = (try? Data(contentsOf: sessionURL)).flatMap { try? JSONDecoder().decode(Session.self, from: $0) }
            let plist = groupURL.flatMap { try? Data(contentsOf: $0.appendingPathComponent("shared.plist")) }
                .flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] }
            let shared = groupURL.flatMap { try? Data(contentsOf: $0.appendingPathComponent("share.json")) }
                .flatMap { try? JSONDecoder().decode(Shared.self, from: $0) }
            return [
                SecretRead("token", from: .json, operation: "JSONDecoder", text: session?.auth.token),
                SecretRead(
                    "pin", from: .plist, operation: "PropertyListSerialization",
                    text: (plist?["lock"] as? [String: Any])?["pin"] as? String),
                SecretRead("share", from: .json, operation: "JSONDecoder", text: shared?.share.key),
            ]
        }
    }
}

await Harness.main(
    InputsBuild(release: Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "2.0"))
