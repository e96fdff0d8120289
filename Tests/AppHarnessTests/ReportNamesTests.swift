import Foundation
import SimDevice
import SimRuntime
import Testing
@testable import AppHarness

/// `reportedAs`: build.json maps the app's own report names to declared labels, so that an app's
/// automation reports in its own words.
@Suite("Report names")
struct ReportNamesTests {
    struct Read: SecretReport {
        var label: String, store: String, operation: String, status: Int32
    }

    static func item(_ label: String, _ patterns: [String]?) -> DeclaredItem {
        var item = DeclaredItem(label: label, store: .keychain(KeychainItemDeclaration(service: "s", account: label)))
        item.reportedAs = patterns
        return item
    }

    static let declaration = BuildDeclaration(
        secrets: [item("oauthToken", ["oauth:*"]), item("smtpPassword", ["smtp"])],
        bookkeeping: [item("installed", ["marker:*:v*"])])

    @Test("patterns: * is any run of characters, the rest literal")
    func patterns() {
        #expect(ReportName.matches("oauth:me@mail.example", "oauth:*"))
        #expect(ReportName.matches("oauth:", "oauth:*"))
        #expect(!ReportName.matches("xoauth:me", "oauth:*"))
        #expect(ReportName.matches("marker:app:v2", "marker:*:v*"))
        #expect(!ReportName.matches("marker:app:2", "marker:*:v*"))
        #expect(ReportName.matches("smtp", "smtp") && !ReportName.matches("smtp2", "smtp"))
        #expect(ReportName.matches("a.b", "*.b") && ReportName.matches("a[b]", "a[*]"))
    }

    @Test("a report name maps to the first item whose pattern matches; a label or an unmatched name stays")
    func labels() {
        let d = Self.declaration
        #expect(d.label(forReportName: "oauth:me@mail.example") == "oauthToken")
        #expect(d.label(forReportName: "smtp") == "smtpPassword")
        #expect(d.label(forReportName: "smtpPassword") == "smtpPassword")
        #expect(d.label(forReportName: "marker:mail:v3") == "installed")
        #expect(d.label(forReportName: "sweep") == "sweep")
    }

    @Test(
        "a bad pattern is bad input naming the field",
        arguments: [
            ([""], #"keeps.secrets[0].reportedAs[0]"#, "is empty"),
            (["*"], #"keeps.secrets[0].reportedAs[0]"#, "matches every name"),
            (["oauth:**"], #"keeps.secrets[0].reportedAs[0]"#, "**"),
            (["ok", "a\u{1}b"], #"keeps.secrets[0].reportedAs[1]"#, "control character"),
            (["smtp*"], #"keeps.secrets[0].reportedAs[0]"#, #"takes keeps.secrets[1]'s label "smtpPassword""#),
            (["smtp"], #"keeps.secrets[1].reportedAs[0]"#, "also given by keeps.secrets[0]"),
            ([], #"keeps.secrets[0].reportedAs"#, "is empty"),
        ])
    func badPatterns(patterns: [String], field: String, reason: String) {
        let declaration = BuildDeclaration(secrets: [Self.item("oauthToken", patterns), Self.item("smtpPassword", ["smtp"])])
        let problem = declaration.problem()
        #expect(problem?.field == field, "\(String(describing: problem))")
        #expect(problem?.reason.contains(reason) == true, "\(String(describing: problem))")
    }

    @Test("reportedAs round-trips through build.json and is left out when not given")
    func coding() throws {
        let data = try JSONEncoder().encode(Self.declaration)
        #expect(try JSONDecoder().decode(BuildDeclaration.self, from: data) == Self.declaration)
        let plain = try JSONEncoder().encode(DeclaredItem(label: "a", store: .preference(key: "a", suite: nil)))
        #expect(!String(decoding: plain, as: UTF8.self).contains("reportedAs"))
    }

    @Test("the harness writes the label for the app's report name, and compares a startup read with the label's value")
    func harness() throws {
        let app = try InProcessApp()
        let arguments = [LaunchMode.caseIDArgument, "c1"]
        let launch = HarnessLaunch(
            buildID: "names", mode: .launch, caseID: "c1", environment: AppEnvironment(platform: app.platform(arguments)),
            declaration: Self.declaration)
        launch.record(Read(label: "oauth:me@mail.example", store: "keychain", operation: "SecItemAdd", status: 0), .written)
        launch.record("smtp", .keychain, "SecItemAdd", 0, .written)
        launch.record("sweep", .keychain, "SecItemDelete", 0, .removed)
        #expect(launch.currentStatus.items.map(\.name) == ["oauthToken", "smtpPassword", "sweep"])
        let value = launch.secrets["oauthToken"]
        launch.reportStartup([
            SecretRead(Read(label: "oauth:me@mail.example", store: "keychain", operation: "read", status: 0), text: value),
            SecretRead("smtp", from: .keychain, text: "not it"),
        ])
        let startup = try #require(launch.currentStatus.startup)
        #expect(startup.map(\.name) == ["oauthToken", "smtpPassword"])
        #expect(startup.map(\.result) == [.found, .mismatch])
    }
}
