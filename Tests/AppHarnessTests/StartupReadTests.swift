import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
@testable import AppHarness

/// The app's own startup read: reported in every launch's status file as words, never values, and
/// the default verify when a build registers one.
@Suite("Startup read")
struct StartupReadTests {
    /// A build whose first screen reads one keychain item with the app's own query (which names a
    /// protection class, so it misses items of another), and whose seed writes it `ck`.
    struct ReadingBuild: AppBuild {
        let buildID = "reading"
        /// Adds kSecAttrAccessibleWhenUnlocked to the read query.
        var accessibleInQuery = false
        var reportsFirst = false

        func seed(_ launch: HarnessLaunch) async {
            let item: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecAttrAccount: "token",
                kSecValueData: Data(launch.secrets["token"].utf8), kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
            ]
            launch.record("token", .keychain, "SecItemAdd", SecItemAdd(item as CFDictionary, nil), .written)
        }
        func launch(_ launch: HarnessLaunch) async {
            if reportsFirst {
                launch.reportStartup([SecretRead("token", from: .keychain, status: errSecItemNotFound, value: nil)])
            }
        }
        func startupRead(_ launch: HarnessLaunch) async -> [SecretRead]? {
            var query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "svc", kSecAttrAccount: "token", kSecReturnData: true,
            ]
            if accessibleInQuery { query[kSecAttrAccessible] = kSecAttrAccessibleWhenUnlocked }
            var found: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &found)
            return [SecretRead("token", from: .keychain, operation: "SecItemCopyMatching", status: status, value: found as? Data)]
        }
    }

    private func run(_ app: InProcessApp, _ build: ReadingBuild, _ mode: LaunchMode) async -> LaunchStatus {
        let arguments = (mode.argument.map { [$0] } ?? []) + [LaunchMode.caseIDArgument, "c9"]
        let platform = app.platform(arguments)
        let launch = HarnessLaunch(
            buildID: build.buildID, mode: mode, caseID: "c9", environment: AppEnvironment(platform: platform))
        await Keychain.withCurrent(platform.keychain) { await build.run(launch) }
        return launch.currentStatus
    }

    @Test("every launch reports the startup read after its hook: found, as words and statuses, no value")
    func reported() async throws {
        let app = try InProcessApp()
        let seeded = await run(app, ReadingBuild(), .seed)
        #expect(seeded.startup?.map(\.result) == [.found])
        let launched = await run(app, ReadingBuild(), .launch)
        #expect(launched.startup?.map(\.result) == [.found] && launched.signedInWith == ["token"])
        let text = String(decoding: try launched.encoded(), as: UTF8.self)
        #expect(text.contains("\"startup\"") && !text.contains(CaseSecrets(caseID: "c9")["token"]))
    }

    @Test("a hook that reports what its first screen read is not read again after it")
    func reportedByTheHook() async throws {
        let app = try InProcessApp()
        _ = await run(app, ReadingBuild(), .seed)
        let launched = await run(app, ReadingBuild(reportsFirst: true), .launch)
        #expect(launched.startup?.map(\.result) == [.missing] && launched.startup?.first?.status == errSecItemNotFound)
    }

    @Test("the default verify is the app's read: a query with kSecAttrAccessible reads as the app reads, missing")
    func verifyReadsAsTheApp() async throws {
        let app = try InProcessApp()
        _ = await run(app, ReadingBuild(), .seed)
        let verified = await run(app, ReadingBuild(accessibleInQuery: true), .verify)
        #expect(verified.items.map(\.result) == [.missing] && verified.items.first?.status == errSecItemNotFound)
        #expect(verified.startup?.map(\.result) == [.missing])
        let generic = await run(app, ReadingBuild(), .verify)
        #expect(generic.items.map(\.result) == [.found])
    }

    @Test("a build that registers no startup read leaves no startup in its status file")
    func none() async throws {
        let app = try InProcessApp()
        let platform = app.platform([LaunchMode.caseIDArgument, "c9"])
        let launch = HarnessLaunch(buildID: "plain", mode: .launch, caseID: "c9", environment: AppEnvironment(platform: platform))
        await Keychain.withCurrent(platform.keychain) { await DeclaredStoresTests.PlainBuild().run(launch) }
        #expect(launch.currentStatus.startup == nil)
        #expect(!String(decoding: try launch.currentStatus.encoded(), as: UTF8.self).contains("startup"))
    }
}
