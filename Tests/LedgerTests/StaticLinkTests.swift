import Foundation
import LedgerKit
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// The app builds link the Swift runtime and Foundation statically (Package.swift, `appBuild`); this
/// test process links them dynamically. Archives pass between the two both ways: a static link that
/// dropped Foundation's `Array` bridging wrote a 0-byte `Session.archive` and migrated nothing.
@Suite struct StaticLinkTests {
    private static let archivePath = "/Library/Application Support/" + LedgerNames.sessionArchive

    @Test("v1's session archive is a binary keyed archive that the dynamically linked Foundation decodes")
    func staticArchiveReadsHere() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        let data = try Data(contentsOf: URL(fileURLWithPath: try device.container() + Self.archivePath))
        #expect(data.starts(with: Array("bplist00".utf8)), "a binary property list, not \(data.count) bytes")
        // The class is v1's library's, which every later release imports: all builds decode this name.
        #expect(data.range(of: Data("LedgerRelease1.LegacySession".utf8)) != nil, "the archived class name")
        let session = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: data))
        #expect(session.userID == LedgerNames.userID(device.caseID))
        #expect(session.token == CaseSecrets(caseID: device.caseID).sessionToken, "the seeded token")
    }

    @Test("an archive written by the dynamically linked Foundation migrates in the statically linked v2")
    func dynamicArchiveMigrates() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        let session = LegacySession(
            userID: LedgerNames.userID(device.caseID), token: CaseSecrets(caseID: device.caseID).sessionToken)
        try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: true)
            .write(to: URL(fileURLWithPath: try device.container() + Self.archivePath))
        try device.install("v2")
        #expect(try device.launch(.launch).migration == MigrationOutcome(state: .migrated, from: 0, to: 2))
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
    }
}
