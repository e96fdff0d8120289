import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
@testable import AppHarness

/// An ordinary build's automation from its declaration alone: every store kind seeded, read back,
/// seeded malformed and cleaned up, in the declared labels.
@Suite("Declared stores")
struct DeclaredStoresTests {
    static let declaration = BuildDeclaration(secrets: [
        DeclaredItem(label: "apiToken", store: .preference(key: "apiToken", suite: nil)),
        DeclaredItem(
            label: "shareKey", store: .propertyList(file: "Library/Application Support/settings.plist", keyPath: "sharing.key")),
        DeclaredItem(
            label: "session", store: .archive(file: "Library/Application Support/Session.archive", keyPath: "auth.token")),
        DeclaredItem(
            label: "password",
            store: .keychain(KeychainItemDeclaration(itemClass: "inet", server: "sync.example", account: "me", accessible: "ck"))),
        DeclaredItem(
            label: "perCase", store: .keychain(KeychainItemDeclaration(service: "svc.$(CASE_ID)", account: "key.$(CASE_ID)"))),
    ])

    /// A build with no automation code of its own: only its (empty) launch.
    struct PlainBuild: AppBuild {
        let buildID = "plain"
        func launch(_ launch: HarnessLaunch) async {}
    }

    private func run(_ app: InProcessApp, _ mode: LaunchMode, arguments: [String] = []) async -> LaunchStatus {
        let platform = app.platform([mode.argument!, LaunchMode.caseIDArgument, "c9"] + arguments)
        let environment = AppEnvironment(platform: platform)
        let launch = HarnessLaunch(
            buildID: "plain", mode: mode, caseID: "c9", environment: environment, declaration: Self.declaration)
        await Keychain.withCurrent(platform.keychain) { await PlainBuild().run(launch) }
        return launch.currentStatus
    }

    @Test("seed writes every declared store, verify finds each, cleanup removes each exactly; no value in the status")
    func roundTrip() async throws {
        let app = try InProcessApp()
        let labels = Self.declaration.secretLabels.sorted()
        let seeded = await run(app, .seed)
        #expect(seeded.items.map(\.name).sorted() == labels)
        #expect(seeded.items.allSatisfy { $0.result == .written }, "\(seeded.items)")
        let verified = await run(app, .verify)
        #expect(verified.items.allSatisfy { $0.result == .found }, "\(verified.items)")
        let text = String(decoding: try verified.encoded(), as: UTF8.self)
        for label in labels { #expect(!text.contains(CaseSecrets(caseID: "c9")[label])) }
        let cleaned = await run(app, .cleanup)
        #expect(cleaned.items.allSatisfy { $0.result == .removed }, "\(cleaned.items)")
        let after = await run(app, .verify)
        #expect(after.items.allSatisfy { $0.result == .missing }, "\(after.items)")
    }

    @Test("malformed seeds are written, and read back as mismatches or decode failures, never found")
    func malformed() async throws {
        let app = try InProcessApp()
        let seeded = await run(app, .seedMalformed)
        #expect(seeded.items.allSatisfy { $0.result == .written }, "\(seeded.items)")
        let verified = await run(app, .verify)
        #expect(verified.items.allSatisfy { $0.result != .found }, "\(verified.items)")
    }

    @Test("-UITestSeedMalformedStore malforms the stores it names alone; the others are seeded valid")
    func malformedAlone() async throws {
        let app = try InProcessApp()
        let only = ["-UITestSeedMalformedStore", "session", "-UITestSeedMalformedStore", "apiToken"]
        let seeded = await run(app, .seedMalformed, arguments: only)
        #expect(seeded.items.allSatisfy { $0.result == .written }, "\(seeded.items)")
        let verified = await run(app, .verify)
        for item in verified.items {
            #expect((item.result == .found) == !["session", "apiToken"].contains(item.name), "\(item)")
        }
    }

    @Test("SimUserDefaults has UserDefaults' signatures over the launch's preferences")
    func userDefaults() async throws {
        let app = try InProcessApp()
        _ = await run(app, .seed)
        // `.standard` is this wrapper over the launch's preferences (one launch per app process).
        let defaults = SimUserDefaults(AppEnvironment(platform: app.platform([])).defaults)
        #expect(defaults.string(forKey: "apiToken") == CaseSecrets(caseID: "c9")["apiToken"])
        defaults.set(3, forKey: "count")
        #expect(defaults.integer(forKey: "count") == 3)
        defaults.removeObject(forKey: "count")
        #expect(defaults.object(forKey: "count") == nil)
    }
}

/// Declarations that describe real items: an internet password's whole key, and a key attribute
/// left absent, as the keychain allows.
@Suite("Declared keychain items with their whole key")
struct DeclaredKeyTests {
    struct PlainBuild: AppBuild {
        let buildID = "plain"
        func launch(_ launch: HarnessLaunch) async {}
    }

    static func declaration(_ store: KeychainItemDeclaration) -> BuildDeclaration {
        BuildDeclaration(secrets: [DeclaredItem(label: "password", store: .keychain(store))])
    }

    private func run(_ app: InProcessApp, _ mode: LaunchMode, _ declaration: BuildDeclaration) async -> LaunchStatus {
        let platform = app.platform([mode.argument!, LaunchMode.caseIDArgument, "c9"])
        let launch = HarnessLaunch(
            buildID: "plain", mode: mode, caseID: "c9", environment: AppEnvironment(platform: platform), declaration: declaration)
        await Keychain.withCurrent(platform.keychain) { await PlainBuild().run(launch) }
        return launch.currentStatus
    }

    @Test("an internet password with port and protocol is read by its whole key: the same item without them is another item")
    func internetKey() async throws {
        let app = try InProcessApp()
        let withPort = Self.declaration(
            KeychainItemDeclaration(itemClass: "inet", server: "imap.example.com", account: "me", port: 993, protocol: "imap"))
        let withoutPort = Self.declaration(KeychainItemDeclaration(itemClass: "inet", server: "imap.example.com", account: "me"))
        #expect(await run(app, .seed, withoutPort).items.map(\.result) == [.written])
        // The re-added item without its port is not the one the app's login query (with the port) finds.
        #expect(await run(app, .verify, withPort).items.map(\.result) == [.missing])
        #expect(await run(app, .seed, withPort).items.map(\.result) == [.written])
        #expect(await run(app, .verify, withPort).items.map(\.result) == [.found])
    }

    @Test("a generic password declared without a service is the item with none, read exactly")
    func absentService() async throws {
        let app = try InProcessApp()
        let bare = Self.declaration(KeychainItemDeclaration(account: "token"))
        // A declaration whose keychain item follows other stores is sound.
        let mixed = BuildDeclaration(secrets: [
            DeclaredItem(label: "a", store: .preference(key: "a", suite: nil)),
            DeclaredItem(label: "b", store: .keychain(KeychainItemDeclaration(itemClass: "inet", server: "s", port: 443))),
        ])
        #expect(bare.problem() == nil && mixed.problem() == nil)
        #expect(await run(app, .seed, bare).items.map(\.result) == [.written])
        #expect(await run(app, .verify, bare).items.map(\.result) == [.found])
        let decoded = try JSONDecoder().decode(
            KeychainItemDeclaration.self, from: Data(#"{"class": "inet", "server": "s", "port": 443, "protocol": "htps"}"#.utf8))
        #expect(decoded.account == "" && decoded.port == 443 && decoded.protocol == "htps")
    }
}
