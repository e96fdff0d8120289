import Entitlements
import Foundation
import Testing
import TestSupport

/// The entitlements diff covers each app extension of two builds (issue 39, build.json's `extensions`).
@Suite("Entitlements diff of app extensions")
struct ExtensionDiffTests {
    static let shared = "TEAM123456.com.example.shared"

    /// Builds `v1` (the extension holds the shared group) and `v2` (its groups `newGroups`) in a builds folder.
    func builds(newGroups: [String]) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory("extension-diff")
        let builds = directory.file("builds")
        for (id, groups) in [("v1", [Self.shared]), ("v2", newGroups)] {
            let folder = try BuildFixture.write(in: builds, id: id, buildNumber: id == "v1" ? "100" : "200")
            try BuildFixture.addExtension(to: folder, name: "notify", accessGroups: groups)
        }
        return (directory, builds)
    }

    @Test("an extension that loses the shared access group is an error naming the extension: the diff fails")
    func losesSharedGroup() throws {
        let (directory, builds) = try builds(newGroups: ["TEAM123456.com.example.tiny.notify"])
        _ = directory
        let report = try EntitlementsComparison.compare(
            old: "v1", new: "v2", team: nil, bundleID: nil, buildsRoot: builds, itemCounts: nil)
        #expect(report.verdict == .incompatible)
        #expect(report.exitCode == 1)
        // The app's own entitlements did not change.
        #expect(report.findings.allSatisfy { $0.severity != .error })
        let notify = try #require(report.extensions?.first)
        #expect(notify.name == "notify")
        #expect(notify.findings.contains { $0.id == .unreachableGroup && $0.subject == Self.shared })
        #expect(notify.findings.allSatisfy { $0.message.hasPrefix("extension notify: ") })
        #expect(report.text.contains("extensions\n  notify\n    old  \(Self.shared), TEAM123456.com.example.tiny.notify\n"))
    }

    @Test("an extension that keeps the shared group passes; builds without extensions report none")
    func keepsSharedGroup() throws {
        let (directory, builds) = try builds(newGroups: [Self.shared, "TEAM123456.com.example.tiny.notify"])
        _ = directory
        let report = try EntitlementsComparison.compare(
            old: "v1", new: "v2", team: nil, bundleID: nil, buildsRoot: builds, itemCounts: nil)
        #expect(report.verdict == .compatible)
        #expect(report.extensions?.map(\.name) == ["notify"])
        try BuildFixture.write(in: builds, id: "plain1")
        try BuildFixture.write(in: builds, id: "plain2", buildNumber: "200")
        let plain = try EntitlementsComparison.compare(
            old: "plain1", new: "plain2", team: nil, bundleID: nil, buildsRoot: builds, itemCounts: nil)
        #expect(plain.extensions == nil)
        #expect(!plain.text.contains("extensions"))
        #expect(!plain.json().contains("extensions"))
    }
}
