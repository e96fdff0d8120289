import Foundation
import SimDevice
import SimRuntime
import Testing
@testable import AppHarness

/// What lets a build's automation hand the harness the app's own functions and types: reports in
/// the app's own types (``SecretReport``), a seed through the app's own function, and the hook
/// after a seed.
@Suite("The app's own reports and seed function")
struct AppReportsTests {
    /// A step as an app reports it, in its own type with the harness's property names.
    struct Step: SecretReport {
        var label: String, store: String, operation: String, status: Int32
    }

    struct Build: AppBuild {
        let buildID = "reports"
        let marks: Marks
        func afterSeed(_ launch: HarnessLaunch) async { marks.add(launch.mode) }
        func launch(_ launch: HarnessLaunch) async {}
    }

    final class Marks: @unchecked Sendable {
        private let lock = NSLock()
        private var modes: [LaunchMode] = []
        func add(_ mode: LaunchMode) { lock.withLock { modes.append(mode) } }
        var all: [LaunchMode] { lock.withLock { modes } }
    }

    static let declaration = BuildDeclaration(secrets: [
        DeclaredItem(label: "imapPassword", store: .archive(file: "Library/Application Support/account.archive", keyPath: nil)),
        DeclaredItem(label: "smtpPassword", store: .propertyList(file: "Documents/settings.plist", keyPath: "smtpPassword")),
    ])

    private func launch(_ app: InProcessApp, _ mode: LaunchMode) -> HarnessLaunch {
        let arguments = (mode.argument.map { [$0] } ?? []) + [LaunchMode.caseIDArgument, "c1"]
        return HarnessLaunch(
            buildID: "reports", mode: mode, caseID: "c1", environment: AppEnvironment(platform: app.platform(arguments)),
            declaration: Self.declaration)
    }

    @Test("a report in the app's own type is recorded with the contract's word for its store (an unknown word is a file)")
    func recordsReports() throws {
        let launch = launch(try InProcessApp(), .launch)
        launch.record(Step(label: "imapPassword", store: "keychain", operation: "SecItemAdd", status: 0), .written)
        launch.record(Step(label: "smtpPassword", store: "settings", operation: "write", status: EIO), .failed)
        let items = launch.currentStatus.items
        #expect(items.map(\.location) == [.keychain, .file])
        #expect(items.map(\.status) == [0, EIO] && items.map(\.result) == [.written, .failed])
        let read = SecretRead(
            Step(label: "imapPassword", store: "keychain", operation: "SecItemCopyMatching", status: 0), text: "pw")
        #expect(read.value == Data("pw".utf8) && read.location == .keychain && read.operation == "SecItemCopyMatching")
    }

    @Test("a seed through the app's own function records every declared secret written, or failed with the errno it threw")
    func seedThrough() throws {
        let app = try InProcessApp()
        let saved = launch(app, .seed)
        var given: String?
        saved.seed(through: "saveAccount") { secrets in given = secrets["imapPassword"] }
        #expect(given == CaseSecrets(caseID: "c1")["imapPassword"])
        #expect(saved.currentStatus.items.map(\.name) == ["imapPassword", "smtpPassword"])
        #expect(saved.currentStatus.items.map(\.location) == [.archive, .plist])
        #expect(saved.currentStatus.items.allSatisfy { $0.result == .written && $0.status == 0 && $0.operation == "saveAccount" })

        let full = launch(app, .seed)
        full.seed(through: "saveAccount") { _ in
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFileWriteOutOfSpaceError,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))])
        }
        #expect(full.currentStatus.items.allSatisfy { $0.result == .failed && $0.status == ENOSPC })
        let other = launch(app, .seed)
        other.seed(through: "saveAccount") { _ in throw CocoaError(.fileWriteUnknown) }
        #expect(other.currentStatus.items.allSatisfy { $0.status == EIO }, "no errno: EIO")
    }

    @Test("afterSeed runs after the seed and the malformed seed, in no other mode")
    func afterSeed() async throws {
        let app = try InProcessApp()
        let marks = Marks()
        for mode in [LaunchMode.seed, .seedMalformed, .launch, .verify, .cleanup] {
            await Build(marks: marks).run(launch(app, mode))
        }
        #expect(marks.all == [.seed, .seedMalformed])
    }
}
